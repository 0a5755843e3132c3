"""One subpackage per task family: data conventions, evaluators and generators."""

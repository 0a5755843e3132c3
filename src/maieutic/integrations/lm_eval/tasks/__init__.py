"""lm-eval's include path for maieutic's tasks (the YAML files and the ``utils`` module
their ``!function`` entries name)."""

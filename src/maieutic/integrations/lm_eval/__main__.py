"""``python -m maieutic.integrations.lm_eval path``: print the include path."""

from __future__ import annotations

import sys

from maieutic.integrations.lm_eval import include_path


def main(argv: list[str]) -> int:
    """Print the include path for ``path``; usage on anything else (exit 2)."""
    if argv != ["path"]:
        print("usage: python -m maieutic.integrations.lm_eval path", file=sys.stderr)
        return 2
    print(include_path())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

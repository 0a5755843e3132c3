"""Speed of the question parser on long replies without a "?" (runaway model output).

    python benchmarks/bench_parser.py
    python benchmarks/bench_parser.py --compare OLD_PARSING.py

Prints the time of ``parse_questions`` on 16,000 words and on a 100 KB reply (one
question, then prose), and on a 1 MB reply with the 20,000-character cut lifted (the
parser's own work, which should grow linearly). ``--compare`` times another version of
``maieutic/generate/parsing.py`` on the same replies, e.g. the one before the fix::

    git show COMMIT:src/maieutic/generate/parsing.py > /tmp/old_parsing.py

(the quadratic version takes tens of seconds to minutes per reply).
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from maieutic.generate import parsing

PROSE = "The speaker assumes that the policy will work as intended in every case. "
REPLIES = {
    "16,000 words": "word " * 16_000,
    "100 KB reply": "1. Is the policy fair to everyone?\n" + PROSE * 1400,
}


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("parsing_compared", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seconds(parse: Callable[[str], list[str]], text: str) -> float:
    start = time.perf_counter()
    parse(text)
    return time.perf_counter() - start


def _uncapped_megabyte() -> float:
    """The parser's own work on 1 MB, with the cut lifted for the measurement."""
    cap, parsing.MAX_REPLY_CHARS = parsing.MAX_REPLY_CHARS, 10**9
    try:
        return _seconds(parsing.parse_questions, "word " * 200_000)
    finally:
        parsing.MAX_REPLY_CHARS = cap


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", type=Path, help="another parsing.py to time")
    args = parser.parse_args()
    other = _load(args.compare) if args.compare else None
    for name, text in REPLIES.items():
        line = f"{name} ({len(text):,} chars): {_seconds(parsing.parse_questions, text):.4f} s"
        if other is not None:
            line += f"; {args.compare.name}: {_seconds(other.parse_questions, text):.2f} s"
        print(line)
    print(f"1 MB without a '?', cut lifted: {_uncapped_megabyte():.4f} s")


if __name__ == "__main__":
    main()

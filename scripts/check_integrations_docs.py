"""Run every command of docs/integrations.md as the page writes it, from the repository
root, in the environment this runs in (CI: the test environment, which has the
``inspect``, ``lm-eval`` and ``datasets`` extras and llama.cpp's server).

The page's ``bash`` blocks are read, not copied here, so a command changed on the page
is the command checked. Three kinds of line are not run verbatim, each said as it
happens:

- a placeholder the reader fills in (``…`` in a file name written by an earlier
  command) is matched as a glob against what that command wrote;
- a command that needs what CI cannot have (a paid model's key, a viewer that serves
  until stopped) is named as skipped, with why;
- a command ending in ``&`` (the model server) runs in the background until the end,
  and the next command waits for its port; each section of the page starts it, and
  the second start finds it running.

Exit 0 when every command run exits 0; otherwise the first failing command, its output
and its status. Files the commands write (``logs/``, ``runs/``, the imported results)
are removed at the end, unless they were there before.

    python scripts/check_integrations_docs.py [--page docs/integrations.md]
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {
    "inspect view": "the log viewer serves until stopped",
    "grader=openai/": "needs a paid model's API key",
}
"""A command holding this text is not run: the reason is printed instead."""
WRITTEN = ("logs", "runs")
"""Folders the page's commands write in the working folder."""


def commands(page: Path) -> list[str]:
    """The page's bash commands, one per logical line (continuations joined), without
    comments."""
    found: list[str] = []
    inside = False
    pending = ""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```bash"
            continue
        if not inside:
            continue
        code = _without_comment(line).rstrip()
        if code.endswith("\\"):
            pending += code[:-1] + " "
            continue
        whole = (pending + code).strip()
        pending = ""
        if whole:
            found.append(whole)
    return found


def _without_comment(line: str) -> str:
    # a `#` that starts a word outside quotes begins a comment
    quote = None
    for index, char in enumerate(line):
        if char in "'\"" and quote in (None, char):
            quote = None if quote else char
        elif char == "#" and quote is None and (index == 0 or line[index - 1].isspace()):
            return line[:index]
    return line


def filled(command: str) -> str:
    """``command`` with each ``…`` placeholder in a word matched against the files there
    (the newest match), and a word naming a results file the page never writes
    (``other-model.json``) left for the caller to notice."""
    words = shlex.split(command)
    out = []
    for word in words:
        if "…" in word:
            pattern = re.sub(r"\d{4}-…", "*", word).replace("…", "*")
            matches = sorted(glob.glob(pattern), key=os.path.getmtime)
            if not matches:
                raise SystemExit(f"check: nothing matches {word!r} (as {pattern!r})")
            word = matches[-1]
        out.append(word)
    return shlex.join(out)


def wait_for_server(env: dict[str, str], timeout: float = 180.0) -> None:
    """Until the page's model server answers at its base URL."""
    base = env.get("LOCAL_BASE_URL", "http://127.0.0.1:8080/v1").rstrip("/")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=5):
                return
        except OSError:
            time.sleep(1)
    raise SystemExit(f"check: the model server never answered at {base}/models")


def main(argv: list[str] | None = None) -> int:
    """Run the page's commands; 0 when all ran, else the first failure's status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", type=Path, default=ROOT / "docs" / "integrations.md")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    # stopped from outside (CI's time limit, Ctrl-C): the servers and files go too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    before = {p for p in Path(".").iterdir()}
    started: set[str] = set()
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", MAIEUTIC_QUIET="1")
    background: list[subprocess.Popen[bytes]] = []
    status = 0
    try:
        for command in commands(args.page):
            reason = next((why for text, why in SKIPPED.items() if text in command), None)
            if reason:
                print(f"skipped ({reason}): {command}", flush=True)
                continue
            if command.startswith("export "):
                for pair in shlex.split(command)[1:]:
                    name, _, value = pair.partition("=")
                    env[name] = value
                print(f"$ {command}", flush=True)
                continue
            if command.endswith("&"):
                run = command[:-1].strip()
                if run in started:  # each section of the page starts it; one is enough
                    print(f"(already running) {run} &", flush=True)
                    continue
                started.add(run)
                print(f"$ {run} &", flush=True)
                background.append(
                    subprocess.Popen(["bash", "-c", run], env=env, start_new_session=True)
                )
                wait_for_server(env)
                continue
            run = filled(command) if "…" in command else command
            print(f"$ {run}", flush=True)
            done = subprocess.run(["bash", "-c", run], env=env)
            if done.returncode != 0:
                print(f"check: exit {done.returncode} from: {command}", file=sys.stderr)
                status = done.returncode
                break
    finally:
        for process in background:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for path in set(Path(".").iterdir()) - before:
            subprocess.run(["rm", "-rf", str(path)], check=False)
    if status == 0:
        print(f"every command of {args.page.name} ran")
    return status


if __name__ == "__main__":
    sys.exit(main())

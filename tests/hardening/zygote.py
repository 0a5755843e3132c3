"""A warm process that runs each command line in a child forked from it.

A probe run as ``python -m maieutic`` pays for an interpreter start and the command
line's imports (about half a second, several seconds where torch is loaded) before it
does any work, and the matrices run hundreds of probes. This server imports all of it
once (the command tree with every task mounted, and the libraries the commands load),
then forks a child per command line. The child is a process of its own, as a probe
needs: its own process group (a hang is killed with its children), an address-space
limit (a reader of /dev/zero fails instead of filling the machine), its own working
folder, environment, standard input, output and error. It calls the entry point's
``run`` and ends as ``python -m maieutic`` ends: ``sys.exit(run())``, an uncaught
exception printed as a traceback with exit 1, the at-exit functions run, the streams
flushed. What it leaves out is only the start: the interpreter and the imports.

No model is loaded and no thread pool started here before a fork (``OMP_NUM_THREADS``
is 1 in the probes' environment): a child must not inherit the state of threads that
do not exist in it.

Protocol (one JSON line each way): the client writes a job ``{"argv", "cwd", "env",
"stdout", "stderr", "status", "memory"}``; the server forks and answers ``{"pid"}``.
The child writes its exit code to the ``status`` file just before it ends; a child
killed or dead of a signal leaves no status. The server ignores SIGCHLD, so its
children are reaped by the kernel, and exits when its standard input closes.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import json
import os
import pkgutil
import resource
import signal
import sys
import traceback
import weakref

# what the commands import when they run (a child would otherwise import it again)
WARM_MODULES = (
    "numpy", "scipy.stats", "sklearn.linear_model", "pandas", "rapidfuzz", "pysbd",
    "rouge_score.rouge_scorer", "sacrebleu", "faiss", "pypdf", "httpx", "jinja2", "rich",
    "torch", "sentence_transformers", "spacy", "thinc.api", "transformers",
)  # fmt: skip


def warm() -> None:
    """Import the command line with every command mounted, every module of the
    package (commands import theirs when they run), and the libraries."""
    import maieutic
    from tests.cli_commands import leaves

    leaves()  # walking the tree mounts every task's commands
    for module in pkgutil.walk_packages(maieutic.__path__, "maieutic."):
        if not module.name.endswith("__main__"):
            with contextlib.suppress(Exception):
                importlib.import_module(module.name)
    for name in WARM_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def _child(job: dict, channels: tuple[int, ...]) -> None:
    """In the forked child: become the command line of ``job``; never returns."""
    code: int = 1
    try:
        for fd in channels:
            os.close(fd)
        os.setsid()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the server's SIG_IGN is inherited
        if job.get("memory"):
            resource.setrlimit(resource.RLIMIT_AS, (job["memory"], job["memory"]))
        os.chdir(job["cwd"])
        os.environ.clear()
        os.environ.update(job["env"])
        for fd, path, flags in (
            (0, os.devnull, os.O_RDONLY),
            (1, job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
            (2, job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        ):
            opened = os.open(path, flags, 0o644)
            os.dup2(opened, fd)
            os.close(opened)
        sys.argv = ["maieutic", *job["argv"]]
        code = _main(job["argv"])
    except BaseException:  # the harness itself failed: say so where the probe looks
        with contextlib.suppress(BaseException):
            traceback.print_exc()
        code = 1
    finally:
        _end(code, job.get("status", ""))


def _main(argv: list[str]) -> int:
    """``sys.exit(run(argv))`` as the interpreter ends it: the code it ends with."""
    from maieutic.cli.main import run

    try:
        sys.exit(run(argv))
    except SystemExit as exc:
        if exc.code is None:
            return 0
        if isinstance(exc.code, int):
            return exc.code
        print(exc.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1


def _end(code: int, status: str) -> None:
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    if status:
        with contextlib.suppress(BaseException):
            with open(status + ".part", "w", encoding="ascii") as handle:
                handle.write(str(code))
            os.replace(status + ".part", status)
    os._exit(code & 0xFF)


def serve() -> None:
    """Answer jobs on standard input until it closes."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    warm()
    # a collection in a child would visit, and so copy, every page of what was
    # imported here: those objects are left out of collections from now on
    gc.collect()
    gc.freeze()
    # torch registers a finalizer per operator library it loads (about 180), run at
    # exit to unregister them: 50 ms of every child's exit spent on a process that is
    # ending anyway. A real run that imports torch runs them; nothing it writes does.
    for finalizer in list(weakref.finalize._registry):
        finalizer.atexit = False
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    replies.write(json.dumps({"ready": os.getpid()}) + "\n")
    replies.flush()
    channels = (requests.fileno(), replies.fileno())
    for line in requests:
        job = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(job, channels)
        replies.write(json.dumps({"pid": pid}) + "\n")
        replies.flush()


if __name__ == "__main__":
    serve()

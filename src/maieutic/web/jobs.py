"""Background jobs of the web app: model loading, asking, evaluation and reports run
on a worker thread, never on the event loop, so the server keeps answering (pages,
the job's progress, ``/healthz``) while a long job runs.

One worker by default: the jobs share one embedding model per process and are
CPU-bound, so running two at once would only make both slower (and would call one
model from two threads). Later submissions wait their turn and say how many jobs are
ahead of them.

Each job has a time budget (``maieutic serve --job-seconds``): past it, the job stops
at its next step (``maieutic.deadline``) and its page says so, so one job cannot hold
the worker, and every job queued behind it, without end.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from maieutic.deadline import PastDeadline, check, deadline
from maieutic.errors import DataError, MaieuticError

log = logging.getLogger("maieutic.web")

Step = Callable[[str], None]
"""What a job calls to say what it is doing now (shown on its page)."""
Work = Callable[[Step], Any]
"""A job's work: it gets ``step`` and returns the result kept for the result page."""

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
DEFAULT_JOB_SECONDS = 600.0
"""A job's time budget unless ``--job-seconds`` says otherwise: ten times the longest
ask the text limits allow on a two-core machine (about a minute with a cold cache)."""


@dataclass(kw_only=True)
class Job:
    """One piece of background work and what became of it."""

    id: str
    kind: str
    """``ask``, ``leaderboard`` or ``report``: which page shows the result."""
    label: str = ""
    """What the job is about (a file name, a text's first words), for its page."""
    status: str = QUEUED
    step: str = "waiting for the worker"
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    result: Any = None
    error: str | None = None
    data_error: bool = False
    """Whether the failure was the input's fault (shown with HTTP 422, not 500)."""
    timed_out: bool = False
    """Whether the job was stopped for running past its time budget (HTTP 503)."""
    context: dict[str, Any] = field(default_factory=dict)
    """What the result page needs besides the result (e.g. the text to put back)."""

    @property
    def finished_ok(self) -> bool:
        """Whether the job is done and has a result."""
        return self.status == DONE

    @property
    def over(self) -> bool:
        """Whether the job has finished, well or not."""
        return self.status in (DONE, FAILED)

    @property
    def failure_status(self) -> int:
        """The HTTP status of a failed job's page: the input's fault, out of time, or a
        failure of the server's own."""
        return 422 if self.data_error else 503 if self.timed_out else 500

    def seconds(self) -> float:
        """Seconds since the job started (or how long it ran, once over)."""
        if self.started is None:
            return 0.0
        return round((self.finished or time.monotonic()) - self.started, 1)

    def to_json(self, ahead: int = 0) -> dict[str, Any]:
        """The small progress record the pages poll (``GET /jobs/{id}``)."""
        step = self.step
        if self.status == QUEUED and ahead:
            step = f"waiting: {ahead} job(s) ahead of this one"
        return {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "step": step,
            "seconds": self.seconds(),
            "error": self.error,
            "view": f"/jobs/{self.id}/view",
        }


class JobRunner:
    """Runs jobs on worker threads (one by default) and keeps the latest ``keep`` of them.

    Job ids are random (not counters), so one user cannot read another's results
    by guessing a neighbouring id.
    """

    def __init__(
        self, workers: int = 1, *, keep: int = 50, seconds: float | None = DEFAULT_JOB_SECONDS
    ) -> None:
        self._queue: queue.Queue[tuple[Job, Work, Callable[[], None] | None] | None]
        self._queue = queue.Queue()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self.keep = keep
        self.seconds = seconds
        """Each job's time budget (None: none)."""
        # daemon threads (not a ThreadPoolExecutor, whose threads are joined at exit):
        # Ctrl+C stops the server at once instead of waiting for a long job to end
        for n in range(workers):
            threading.Thread(target=self._work, name=f"maieutic-job-{n}", daemon=True).start()
        self._workers = workers

    def submit(
        self,
        kind: str,
        work: Work,
        label: str = "",
        *,
        cleanup: Callable[[], None] | None = None,
        context: dict[str, Any] | None = None,
    ) -> Job:
        """Queue ``work`` and return its job at once; ``cleanup`` runs after it, always."""
        job = Job(id=secrets.token_urlsafe(12), kind=kind, label=label, context=dict(context or {}))
        with self._lock:
            self._jobs[job.id] = job
            self._forget_old()
        self._queue.put((job, work, cleanup))
        return job

    def get(self, job_id: str) -> Job | None:
        """The job, or None when unknown (or forgotten to make room)."""
        with self._lock:
            return self._jobs.get(job_id)

    def ahead_of(self, job: Job) -> int:
        """How many unfinished jobs were submitted before ``job``."""
        with self._lock:
            earlier = []
            for other in self._jobs.values():
                if other is job:
                    break
                earlier.append(other)
        return sum(1 for other in earlier if not other.over)

    def busy(self) -> int:
        """How many jobs are queued or running."""
        with self._lock:
            return sum(1 for job in self._jobs.values() if not job.over)

    def shutdown(self) -> None:
        """Stop the workers once the jobs queued so far are done (they are daemons: a
        process that exits does not wait for them)."""
        for _ in range(self._workers):
            self._queue.put(None)

    def _work(self) -> None:
        while (task := self._queue.get()) is not None:
            self._run(*task)

    def _forget_old(self) -> None:
        # only finished jobs are forgotten: a queued one must still find its record
        while len(self._jobs) > self.keep:
            oldest = next((k for k, j in self._jobs.items() if j.over), None)
            if oldest is None:
                break
            del self._jobs[oldest]

    def _run(self, job: Job, work: Work, cleanup: Callable[[], None] | None) -> None:
        job.status, job.started, job.step = RUNNING, time.monotonic(), "starting"

        def step(message: str) -> None:
            check()  # a new step is a clean place to stop a job out of time
            job.step = message

        try:
            with deadline(self.seconds):
                job.result = work(step)
            job.status = DONE
        # status last in each branch: it is what makes the job over for the pages, which
        # then read the error and its kind (another thread may read them at any moment)
        except PastDeadline as exc:
            job.error = (
                f"the job ran past its time budget of {exc.seconds:g} s and was stopped "
                "(the server's --job-seconds sets the budget)"
            )
            job.timed_out = True
            job.status = FAILED
        except MaieuticError as exc:  # the input's or the model's fault: one line
            job.error, job.data_error = str(exc), isinstance(exc, DataError)
            job.status = FAILED
        except Exception as exc:  # a bug: the page says so; the traceback goes to the log
            log.exception("job %s (%s) failed", job.id, job.kind)
            job.error = f"the job failed unexpectedly ({type(exc).__name__}: {exc})"
            job.status = FAILED
        finally:
            job.finished = time.monotonic()
            job.step = "finished" if job.status == DONE else "failed"
            if cleanup is not None:
                try:
                    cleanup()
                except OSError:
                    log.warning("could not remove the temporary files of job %s", job.id)

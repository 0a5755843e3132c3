"""``maieutic cqs select`` and ``maieutic cqs replay``: a system's stored candidate
questions, chosen from offline or served as if a model were writing them."""

from __future__ import annotations

import signal
import threading

import click

from maieutic.cli.options import (
    component_option,
    is_explicit,
    llm_options,
    seed_option,
    written_file_option,
)
from maieutic.cli.outputs import require_written_file
from maieutic.cli.printing import echo_warnings

_CANDIDATES = click.argument(
    "candidates_path", metavar="CANDIDATES", type=click.Path(dir_okay=False)
)
_DATA = click.option(
    "--data",
    "data_path",
    type=click.Path(dir_okay=False),
    help="The dataset the candidates were written for: where a submission-layout "
    "CANDIDATES file finds its texts (a dataset-layout one carries them).",
)


@click.command("select")
@_CANDIDATES
@_DATA
@component_option(
    "selector",
    task="cqs",
    default="first",
    help="How each text's candidates are reduced to 3 (first: in the file's order; "
    "random: a seeded draw; dedup, overlap, usefulness, scorer:DIR; llm-judge: a model "
    "labels each by the benchmark's guidelines, with --llm/--base-url).",
)
@click.option(
    "--model-first",
    is_flag=True,
    help="Choose as the model-first route would show the candidates: only those with no "
    "hard flaw, about the text and no repeat, in the selector's order; the offline "
    "claims generator fills a text left short (the .meta.json says which).",
)
@seed_option("Seed of the random selector.")
@written_file_option("Submission file to write (3 questions per text), with its .meta.json.")
@llm_options
@click.pass_context
def select(
    ctx: click.Context, candidates_path: str, *, data_path, out_path: str, **options
) -> None:
    """Reduce each text's candidate questions in CANDIDATES to three with a selector.

    CANDIDATES is a file in the benchmark's layout with any number of questions per
    intervention: a dataset (with its texts; people's labels kept where given) or a
    submission (the texts from --data). The result is a submission with a .meta.json
    record, scored by `maieutic evaluate cqs` like any other.
    """
    from maieutic.progress import progress
    from maieutic.registry import create
    from maieutic.run.generation import generate

    require_written_file(out_path, why=": select writes the submission and its .meta.json")
    llm_given = [n for n in ("llm", "base_url") if is_explicit(ctx, n)]
    if llm_given and options["selector"] != "llm-judge":
        raise click.UsageError("--llm and --base-url are for --selector llm-judge")
    if options["selector"] == "llm-judge" and not llm_given:
        # no default judge: the embedded model is measured weaker than the rules
        raise click.UsageError(
            "--selector llm-judge needs the judging model: --llm NAME --base-url URL "
            "(or --llm embedded)"
        )
    component = create(
        "generator",
        task="cqs",
        name="select",
        candidates=candidates_path,
        data=data_path,
        selector=options.pop("selector"),
        model_first=options.pop("model_first"),
        seed=options.pop("seed"),
        **options,
    )
    echo_warnings(candidates_path, component.candidates.notes)
    generated = generate(
        "cqs",
        component.candidates.dataset(),
        generator=component,
        out=out_path,
        progress=progress,
        provenance=ctx.params,
    )
    [run] = generated.runs
    [path] = generated.written
    full = sum(len(o.questions or []) >= 3 for o in run.outcomes)
    offline = sum(len(o.filled) for o in run.outcomes)
    added = f"; {offline} from the offline claims generator" if offline else ""
    click.echo(f"wrote {path} ({full}/{len(run.outcomes)} with 3 questions{added})", err=True)
    for note in run.notes[:20]:
        click.echo(f"  note: {note}", err=True)


@click.command("replay")
@_CANDIDATES
@_DATA
@click.option(
    "--per-reply",
    type=click.IntRange(1, 100),
    help="At most this many of a text's stored questions per reply (default: all).",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8080,
    show_default=True,
    help="Port; 0 picks a free one.",
)
def replay(candidates_path: str, *, data_path, per_reply, host: str, port: int) -> None:
    """Serve a system's stored questions as an OpenAI-compatible model, until interrupted.

    Each chat request is answered with the numbered questions CANDIDATES stores for the
    text the request is about (the stored text found in its messages); a judge's request
    about one stored question gets its stored label. Any route that takes --base-url
    then runs on what the system wrote, offline:

    \b
      maieutic cqs replay extended_test.json --port 8081 &
      maieutic generate cqs --data test.json --generator model-first \\
          --llm replay-HASH --base-url http://127.0.0.1:8081/v1 --out shown.json

    The model's name, replay- and the first 12 digits of the candidates' content hash,
    is printed at start: replies cached from one file are never taken for another's.
    """
    from maieutic.llm.reply_server import ReplyServer
    from maieutic.tasks.cqs.candidates import load_candidates
    from maieutic.tasks.cqs.replay import ReplayIndex

    candidates = load_candidates(candidates_path, data=data_path)
    echo_warnings(candidates_path, candidates.notes)
    index = ReplayIndex(candidates, per_reply=per_reply)
    try:
        server = ReplyServer(index.answer, model=index.model, host=host, port=port).start()
    except OSError as exc:
        raise click.UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    click.echo(
        f"serving the stored questions of {len(index)} texts ({candidates.n_questions} "
        f"questions) as --llm {index.model} --base-url {server.base_url}",
        err=True,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        click.echo(f"answered {server.requests} requests", err=True)

"""``maieutic demo``: the main job on the embedded defaults, with no network.

Three blocks, each told the same way — the text, the questions made for it, how they
score: critical questions for the bundled sample interventions (the model-free claims
generator, labelled against the sample references with the embedded embedding
model, beside the bundled sample submission); weakness types, spans and Socratic
questions for the bundled hand-marked FOCUS arguments (the model-free cue generator,
scored against the marks); two bundled comparative answers scored with the offline
CompQA rubric rules. It ends with where the files went and a next command per task.

The blocks are made from the library's results (``maieutic.generate`` and
``maieutic.evaluate``), not from the evaluate commands' tables.
"""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.errors import RunError
from maieutic.paths import maieutic_home


def _files(story, directory: Path) -> None:
    """Where everything went, one line per file."""
    written = {
        "claims_generator.json": "the generated critical questions (a submission; "
        ".meta.json: how they were made)",
        "results.json": "their labels and scores, and the sample submission's",
        "focus_cues.jsonl": "the weakness types, spans and questions found (.csv: the "
        "released layout)",
        "focus_results.json": "their scores against the gold",
        "compqa_rules.json": "the rubric criteria the rules decided for each answer",
    }
    story.title("Files and next steps")
    story.say(f"Written to {directory}:")
    for name, what in written.items():
        story.say(f"{name}: {what}", indent=2)


@click.command()
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where to write the generated submission and results (default: MAIEUTIC_HOME/demo).",
)
def demo(out_dir: str | None) -> None:
    """Generate questions for the bundled sample texts, then evaluate them: each task's
    block shows a text, the questions made for it and how they score (offline).

    \b
      maieutic demo
      maieutic demo --out-dir demo-files
    """
    from maieutic.apps.demo_compqa import next_compqa, run_compqa, show_compqa
    from maieutic.apps.demo_cqs import next_cqs, run_cqs, show_cqs
    from maieutic.apps.demo_focus import next_focus, run_focus, show_focus
    from maieutic.apps.demo_text import Story

    directory = Path(out_dir) if out_dir else maieutic_home() / "demo"
    try:  # refused before any work, in one line
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot write: {exc.strerror}", where=str(directory)) from None
    story = Story()
    story.say(
        "maieutic demo: questions made for bundled sample texts and scored as the "
        "benchmarks score them, offline. Each block shows a text, the questions made for "
        "it, and how they score."
    )
    cqs = run_cqs(directory)
    for warning in cqs.warnings:
        click.echo(f"warning: {warning}", err=True)
    show_cqs(story, cqs)
    focus = run_focus(directory)
    show_focus(story, focus)
    compqa = run_compqa(directory)
    show_compqa(story, compqa)
    _files(story, directory)
    story.say("Next, one command per task:")
    for task, command in (
        ("CQs, the headline figures explained, every figure kept in cqs.json", next_cqs(cqs)),
        ("FOCUS, per type", next_focus(focus)),
        ("CompQA, with a judge (after maieutic setup-llm)", next_compqa(compqa)),
        (
            "your own text",
            'maieutic ask "We should ban cars downtown because pollution harms children."',
        ),
    ):
        story.say(f"{task}:", indent=2)
        story.command(command, indent=4)

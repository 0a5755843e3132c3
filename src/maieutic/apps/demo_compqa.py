"""The demo's CompQA block: comparative answers, the rubric criteria the offline rules
decide for each (beside the scores given by hand), and why no total is defined."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maieutic.apps.demo_text import Story, criteria_list, in_words, shorten_middle

ANSWER_CHARS = 240
ASPECT_RULES = frozenset({1, 2, 3, 4, 6})
"""Criteria whose rules read the answer's named aspects (``compqa/rules.py``): 1 and 3
need one, 2, 4 and 6 two; with fewer the rules leave them open."""


@dataclass(kw_only=True)
class CompqaRun:
    """What the block ran: the answers, their people's scores and the rules' result."""

    answers: Path
    people: list[dict[str, Any]]
    """The answers as written, with the scores given by hand (``score_dict``)."""
    results_path: Path
    result: Any


def run_compqa(directory: Path) -> CompqaRun:
    """Score the two bundled comparative answers with the offline rubric rules."""
    import maieutic.run
    from maieutic.samples import sample_path

    answers = sample_path("compqa/shots.json")
    results_path = directory / "compqa_rules.json"
    evaluation = maieutic.run.evaluate(
        "compqa", None, submissions=[answers], evaluator="rules", out=results_path
    )
    people = json.loads(answers.read_text(encoding="utf-8"))
    return CompqaRun(
        answers=answers, people=people, results_path=results_path, result=evaluation.results[0]
    )


def _question(record: dict[str, Any]) -> str:
    aspect = f", {record['aspect']}" if record.get("aspect") else ""
    return f"{record['object1']} or {record['object2']}{aspect}?"


def _answer(story: Story, record: dict[str, Any], people: dict, *, open_to_judge: set[int]) -> None:
    from maieutic.tasks.compqa.api import rubric

    criteria = rubric()
    decided = {int(c): v for c, v in record["score_dict"].items()}
    given = {int(c): v for c, v in people.get("score_dict", {}).items()}
    story.gap()
    story.say(_question(record), style="bold")
    text = record["comparison"]
    story.say(f"answer ({len(text)} characters): {shorten_middle(text, ANSWER_CHARS)}", 2)
    story.say("criteria the rules decided: the rules' score (the score given by hand)", 2)
    for c in sorted(decided):
        person = f"({given[c]:g})" if c in given else "(—)"
        line = f"C{c:<3} {decided[c]:g} {person}  {criteria[c].description}"
        story.say(line, indent=4, hang=12)
    left = set(criteria) - set(decided) - open_to_judge
    if left:
        why = (
            "their rules read the answer's named aspects (headings or 'Label:' lines), and it "
            "names fewer than two"
            if left <= ASPECT_RULES
            else "the rules could not decide them for this answer"
        )
        story.say(f"left open here: {criteria_list(left)}: {why}", indent=4)
    total = record.get("score")
    story.say(
        f"total: {total:g} of 19"
        if total is not None
        else f"total: not defined ({len(decided)} of {len(criteria)} criteria decided)",
        indent=2,
    )


def show_compqa(story: Story, run: CompqaRun) -> None:
    """The block: each answer with the criteria the rules decided, then why the rules
    alone give no total."""
    from maieutic.tasks.compqa.api import rubric

    criteria = rubric()
    records = run.result.records()
    decided_somewhere = {int(c) for r in records for c in r["score_dict"]}
    open_to_judge = set(criteria) - decided_somewhere
    count = in_words(len(records))
    story.title(f"CompQA · {count} comparative answers scored by the offline rubric rules")
    story.say(
        f'An answer to "A or B?" is judged on a {len(criteria)}-criterion rubric worth 0 to '
        f"{sum(c.max for c in criteria.values())} points. The offline rules decide what text "
        f"analysis can: {criteria_list(decided_somewhere)} (structure, no repetition, length). "
        f"{'Both answers are' if len(records) == 2 else 'The answers are'} in {run.answers}, "
        "with the scores maieutic's developers gave them by hand."
    )
    for record in records:
        index = record.get("index", 0)
        people = run.people[index] if index < len(run.people) else {}
        _answer(story, record, people, open_to_judge=open_to_judge)
    if any(r.get("score") is None for r in records):
        groups = sorted({criteria[c].group for c in open_to_judge})
        story.gap()
        story.say(
            f"Why no total: the total is the sum of all {len(criteria)} criteria, so it is "
            f"defined only when every one is scored, and no offline rule decides "
            f"{criteria_list(open_to_judge)} (the {' and '.join(groups)} criteria: a judge "
            "scores them)."
        )


def next_compqa(run: CompqaRun) -> str:
    """The command that has a judge score the criteria the rules leave open."""
    return f"maieutic evaluate compqa --evaluator rules+llm {shlex.quote(str(run.answers))}"

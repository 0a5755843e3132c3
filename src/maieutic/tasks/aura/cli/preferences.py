"""``maieutic meta-eval aura-preferences``: the AURA pipeline's choice between two
question sets against people's votes ("AURA-QG", sections 6.1, 6.5 and appendix C)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import click
from rich.table import Table

from maieutic.cli.components import build
from maieutic.cli.options import out_option
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for
from maieutic.data.files import read_text
from maieutic.data.surrogates import refuse_in_json
from maieutic.errors import DataError
from maieutic.report.tables import fmt
from maieutic.signature import Signature
from maieutic.stats import PreferenceItem, UndefinedStatistic, preference_agreement
from maieutic.tasks.aura.cli.group import aura_options
from maieutic.tasks.aura.data import Document, read_document, read_questions
from maieutic.tasks.aura.evaluate import METRICS
from maieutic.tasks.aura.records import AuraAgree

AGGREGATE_LABELS = {
    "sum": "aggregate: higher sum of the four metrics (appendix C)",
    "vote": "aggregate: majority of the four metrics",
}
HUMAN_TIES = "tie-breaker"
"""The recorded human-tie rule: a tied vote is settled by the record's ``tie_breaker``
(the paper's extra annotator), and the pair is skipped when it has none."""
TIE_RULES = (
    "human votes tied: the tie_breaker vote decides, else the pair is skipped; "
    "a metric or aggregate scoring both sets equally agrees with no one"
)


def _side(value: object, where: str, *, field: str) -> str:
    """'A' or 'B' from a vote written 1/2, A/B or set1/set2."""
    side = str(value).strip().upper().replace("SET", "")
    if side not in ("1", "2", "A", "B"):
        raise DataError(f"{field} must be 1/2 (or A/B), not {value!r}", where=where)
    return "A" if side in ("1", "A") else "B"


def read_preferences(path: Path) -> list[dict]:
    """The JSONL records, each checked (votes and tie_breaker read as 'A'/'B')."""
    records = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"not valid JSON ({exc.msg})", where=where) from None
        refuse_in_json(line, record, where)
        if not isinstance(record, dict):
            raise DataError("expected a JSON object", where=where)
        for key in ("document", "set1", "set2", "votes"):
            if key not in record:
                raise DataError(f"missing field {key!r}", where=where)
        if not isinstance(record["votes"], list) or not record["votes"]:
            raise DataError("votes must be a non-empty list of 1/2 (or A/B)", where=where)
        record["votes"] = [_side(v, where, field="votes") for v in record["votes"]]
        if record.get("tie_breaker") is not None:
            record["tie_breaker"] = _side(record["tie_breaker"], where, field="tie_breaker")
        record["where"] = where
        records.append(record)
    if not records:
        raise DataError("no preference records", where=str(path))
    return records


def preferences_signature(
    built, path: Path, records: list[dict], *, aggregate: str, n_items: int
) -> Signature:
    """The evaluator's signature over the preference file and every file it names, with
    the aggregate and the human-tie rule."""
    digest = hashlib.sha256(path.read_bytes())
    for record in records:
        for key in ("document", "set1", "set2"):
            digest.update((path.parent / record[key]).read_bytes())
    base = built.signature(Document(text="", source=str(path)), n_items)
    return dataclasses.replace(
        base,
        dataset="sha256:" + digest.hexdigest(),
        extra={**base.extra, "aggregate": aggregate, "ties": HUMAN_TIES},
    )


def _table(report: dict, aggregate: str, signature: Signature) -> Table:
    table = Table(
        title=f"aura · agreement with human preferences ({report['n_items']} pairs)",
        title_justify="left",
    )
    for header, justify in (("", "left"), ("agree", "right"), ("proportion", "right")):
        table.add_column(header, justify=justify)
    table.add_column("ties", justify="right")
    for name, row in report["per_metric"].items():
        ties = str(report["metric_ties"][name])
        table.add_row(name, f"{row['agree']}/{row['n']}", f"{row['proportion']:.2f}", ties)
    total = report["aggregate"]
    table.add_row(
        AGGREGATE_LABELS[aggregate],
        f"{total['agree']}/{total['n']}",
        f"{total['proportion']:.2f}",
        str(total["ties"]),
    )
    table.caption = (
        f"P(annotator agrees | pipeline = majority) "
        f"{fmt(report['p_annotator_agrees_given_agree'], '{:.2f}')}; "
        f"P(annotator agrees | pipeline ≠ majority) "
        f"{fmt(report['p_annotator_agrees_given_disagree'], '{:.2f}')}\n"
        f"human ties: {report['n_tie_broken']} broken by the tie-breaker, "
        f"{report['n_tied_skipped']} skipped. {TIE_RULES}\nsignature: {signature}"
    )
    return table


@click.command("aura-preferences")
@click.argument("preferences", type=click.Path(dir_okay=False, exists=True))
@click.option(
    "--aggregate",
    type=click.Choice(["sum", "vote"]),
    default="sum",
    show_default=True,
    help="How the four metrics make the pipeline's choice: sum — the set with the higher "
    "sum (equivalently mean) of the metrics, as the paper's appendix C; vote — the set "
    "more metrics prefer (this command's default before the option).",
)
@aura_options
@out_option
@click.pass_context
def aura_preferences(ctx, preferences, aggregate, *, evaluator, out_path, **options):
    """How often the AURA pipeline prefers the question set people preferred.
    PREFERENCES is JSONL, one pair per line: {"pair", "document", "set1", "set2",
    "votes": ["1", "2", …], "tie_breaker": "1"} (paths relative to the file; one vote
    per annotator; tie_breaker, optional, settles a tied vote)."""
    path = Path(preferences)
    records = read_preferences(path)
    built = build(ctx, "evaluator", task="aura", name=evaluator, options=options)
    items = []
    for record in records:
        document = read_document(path.parent / record["document"])
        first, second = (read_questions(path.parent / record[k]) for k in ("set1", "set2"))
        (m1, _), (m2, _) = built.score_set(document, first), built.score_set(document, second)
        scores = {m: (m1[m], m2[m]) for m in METRICS}
        items.append(PreferenceItem(scores, record["votes"], record.get("tie_breaker")))
    try:
        report = preference_agreement(items, aggregate=aggregate)
    except UndefinedStatistic as exc:
        raise DataError(str(exc), where=preferences) from None
    signature = preferences_signature(
        built, path, records, aggregate=aggregate, n_items=report["n_items"]
    )
    console_for(out_path).print(_table(report, aggregate, signature))
    write_record(out_path, AuraAgree, ctx=ctx, signature=signature.as_dict(), **report)

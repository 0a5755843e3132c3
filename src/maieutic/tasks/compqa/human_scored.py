"""People's score files as scored answers, so that a table can show people as one more
column beside the judges (the paper's "Human*" column of Table 3).

Three forms are read: the averaged table (``human_evaluation_367.tsv``: ``C1`` …
``C15``), one annotator's file (``score_dict.1`` … ``score_dict.15``: the rows that
annotator scored), and both annotators' files given together (row-aligned: their mean
where both scored a row, else the one who did; as ``meta-eval compqa --hum1 --hum2``).
The generator and scenario come from each row's ``filename``
(``scored_gpt4_scenario_3_comparison`` → gpt4, 3), which in the released table always
agrees with its ``model`` and ``scenario`` columns. The total is the sum of the
fifteen criteria, never the files' ``score`` column. A score above its criterion's
maximum is kept, as the released files hold a few, and noted so that it is flagged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from maieutic.data.files import read_text
from maieutic.errors import DataError
from maieutic.tasks.compqa.data import Answer, ScoreCheck, generator_scenario
from maieutic.tasks.compqa.human_agreement import CRITERIA
from maieutic.tasks.compqa.human_files import read_tsv, row_scores
from maieutic.tasks.compqa.judge_agreement import (
    HumanScore,
    humans_from_annotators,
    humans_from_table,
)
from maieutic.tasks.compqa.scored import ScoredFile

TABLE = "humans:table"
"""What made the scores of the averaged table."""
ANNOTATOR = "humans:annotator"
"""... of one annotator's file."""
ANNOTATORS = "humans:annotators"
"""... of both annotators' files, averaged where both scored."""
_TABLE_COLUMNS = [f"C{i}" for i in range(1, 16)]
_ANSWER_COLUMNS = ["filename", "object1", "object2", "comparison"]


def is_human_file(path: str | Path) -> bool:
    """Whether ``path`` names a people's score file (tab-separated)."""
    return Path(path).suffix.lower() in (".tsv", ".tab")


def _layout(path: Path) -> str:
    """``table`` (C1…C15) or ``annotator`` (score_dict.1…15), from the header."""
    text = read_text(path)
    if not text.strip():
        raise DataError("file is empty (expected a tab-separated header)", where=str(path))
    header = text.split("\n", 1)[0].rstrip("\r").split("\t")
    if "C1" in header:
        return "table"
    if CRITERIA[0] in header:
        return "annotator"
    raise DataError(
        "missing column(s): neither the averaged table's C1…C15 nor an annotator's "
        "score_dict.1…score_dict.15",
        where=str(path),
    )


def _answer(human: HumanScore) -> Answer:
    generator, scenario = generator_scenario(human.filename)
    check = ScoreCheck(scores={i: v for i, v in enumerate(human.scores, start=1)})
    return Answer(
        object1=human.object1,
        object2=human.object2,
        aspect=human.aspect,
        comparison=human.comparison,
        generator=generator,
        scenario=scenario,
        check=check,
    )


def _one_annotator(path: Path) -> tuple[list[HumanScore], int]:
    out, unscored = [], 0
    for row in read_tsv(path, [*_ANSWER_COLUMNS, *CRITERIA]):
        checked = row_scores(row, CRITERIA, path)
        if checked.scores is None:
            unscored += 1  # this annotator left the row (or part of it) unscored
            continue
        cells = row.cells
        out.append(
            HumanScore(
                filename=cells["filename"],
                object1=cells["object1"],
                object2=cells["object2"],
                aspect=cells.get("aspect") or "",
                comparison=cells["comparison"],
                scores=checked.scores,
                notes=checked.notes,
            )
        )
    return out, unscored


def read_human_files(paths: Sequence[str | Path]) -> ScoredFile:
    """People's scores from one table, one annotator's file, or two annotators' files."""
    paths = [Path(p) for p in paths]
    layouts = [_layout(p) for p in paths]
    if layouts == ["table"]:
        humans, left_out = humans_from_table(paths[0])
        scored_by = TABLE
    elif layouts == ["annotator"]:
        humans, left_out = _one_annotator(paths[0])
        scored_by = ANNOTATOR
    elif layouts == ["annotator", "annotator"]:
        humans, left_out = humans_from_annotators(paths[0], second=paths[1])
        scored_by = ANNOTATORS
    else:
        raise DataError(
            "people's scores are one averaged table, or one or two annotators' files; "
            f"found {len(paths)} file(s): {', '.join(layouts)}",
            where=", ".join(str(p) for p in paths),
        )
    notes = [note for human in humans for note in human.notes]
    answers = [_answer(h) for h in humans]
    return ScoredFile(answers=answers, scored_by=[scored_by], notes=notes, left_out=left_out)

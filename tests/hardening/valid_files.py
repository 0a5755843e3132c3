"""The input files of the valid calls: small, written fresh into each probe's folder.

Packaged samples (``src/maieutic/tasks/*/samples``), one old results file
(``tests/fixtures/old_outputs``) and files made here in each task's released layout.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import threading
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "src" / "maieutic" / "tasks"
OLD_OUTPUTS = REPO / "tests" / "fixtures" / "old_outputs"


def _sample(relative: str) -> bytes:
    return (SAMPLES / relative).read_bytes()


def _labelled_submission() -> bytes:
    submission = json.loads(_sample("cqs/samples/sample_submission.json"))
    for entry in submission.values():
        for question in entry["cqs"] if isinstance(entry["cqs"], list) else ():
            question["label"] = "Useful"
    return json.dumps(submission).encode()


def _labelled_outputs() -> bytes:
    """The sample submission's questions with the three labels people give, in turn."""
    submission = json.loads(_sample("cqs/samples/sample_submission.json"))
    labels = ("Useful", "Unhelpful", "Invalid")
    n = 0
    for entry in submission.values():
        for question in entry["cqs"] if isinstance(entry["cqs"], list) else ():
            question["label"] = labels[n % 3]
            n += 1
    return json.dumps(submission).encode()


FOCUS_COLUMNS = [
    "Argument",
    "category",
    "FSQType1",
    "FSQType2",
    "Span_FSQType1",
    "Span_FSQType2",
    "Predicted_Type1",
    "Predicted_Type2",
    "Span_PredictedType1",
    "Span_PredictedType2",
]
FOCUS_ROWS = [
    (
        "Nobody reads paper books anymore, so public libraries are a waste of money.",
        "Overgeneralized Statement",
        "Nobody reads paper books anymore",
        "Vague or Ambiguous Terms",
        "a waste of money",
    ),
    (
        "Homework is pointless. Kids never learn anything from it at all.",
        "Vague or Ambiguous Terms",
        "pointless",
        "Overgeneralized Statement",
        "Kids never learn anything from it",
    ),
]


def _focus_csv(predicted: bool) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(FOCUS_COLUMNS)
    for text, type1, span1, type2, span2 in FOCUS_ROWS:
        guess = [type1, type2, span1, span2] if predicted else ["", "", "", ""]
        writer.writerow([text, "clarity", type1, type2, span1, span2, *guess])
    return buffer.getvalue().encode()


def _focus_annotators() -> bytes:
    header = [f"A{n}_clarity_{slot}" for slot in "FG" for n in (1, 2)]
    rows = [[span1, span1, span2, span2] for _, _, span1, _, span2 in FOCUS_ROWS]
    buffer = io.StringIO()
    csv.writer(buffer).writerows([header, *rows])
    return buffer.getvalue().encode()


COMPQA_CRITERIA = [f"score_dict.{i}" for i in range(1, 16)]
COMPQA_NAME = "scored_gpt4_scenario_1_comparison"


def _compqa_answers() -> list[dict]:
    return [
        {
            "object1": f"coffee{i}",
            "object2": "tea",
            "aspect": "",
            "comparison": f"Summary: coffee{i} has more caffeine than tea.\n\n- **Taste**: "
            "coffee is bitter, tea is mild.\n\nBest option: tea for the evening.",
            "score_dict": {str(c): (i + c) % 2 for c in range(1, 16)},
            "score": 0,
        }
        for i in range(4)
    ]


def _tsv(header: list[str], rows: list[list]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter="\t").writerows([header, *rows])
    return buffer.getvalue().encode()


def _compqa_humans() -> bytes:
    return _compqa_ratings([f"C{i}" for i in range(1, 16)], shift=1)


def _compqa_annotator(shift: int) -> bytes:
    return _compqa_ratings(list(COMPQA_CRITERIA), shift)


def _compqa_ratings(criteria: list[str], shift: int) -> bytes:
    """A ratings TSV of the answers: one 0/1 column per criterion, varied by ``shift``."""
    header = ["object1", "object2", "aspect", "comparison", "score", *criteria, "filename"]
    rows = [
        [
            a["object1"],
            "tea",
            "",
            a["comparison"],
            "0",
            *[(i + c + shift) % 2 for c in range(1, 16)],
            COMPQA_NAME,
        ]
        for i, a in enumerate(_compqa_answers())
    ]
    return _tsv(header, rows)


AURA_DOC = (
    "# The pump\n\nThe pump moves water through the pipes every morning.\n\n"
    "The filter must be cleaned every month to keep the water clear.\n\n"
    "- check the valve\n- check the hose\n"
)


def _qgeval() -> bytes:
    passages = [
        (
            "The bridge opened in 1932. It carries trains and cars across the river.",
            ["When did the bridge open?", "What does the bridge carry?"],
        ),
        (
            "The pump moves water through the pipes. The filter is cleaned monthly.",
            ["What moves water through the pipes?", "How often is the filter cleaned?"],
        ),
        (
            "The library opens at nine. Children read there after school.",
            ["When does the library open?", "Who reads there after school?"],
        ),
        (
            "The ferry crosses the lake twice a day. It carries forty cars.",
            ["How often does the ferry cross?", "How many cars does it carry?"],
        ),
        (
            "The bakery sells bread at dawn. Its rye loaf won a prize.",
            ["When does the bakery sell bread?", "Which loaf won a prize?"],
        ),
        (
            "The museum shows old maps. Entry is free on Sundays.",
            ["What does the museum show?", "When is entry free?"],
        ),
    ]
    off_topic = ["Who painted the Mona Lisa?", "How tall is the mountain?"]
    instances = []
    for n, (passage, good) in enumerate(passages):
        questions = [{"prediction": q, "source": "SQuAD_good", "answerability": 3.0} for q in good]
        questions += [
            {"prediction": q, "source": "SQuAD_bad", "answerability": 1.0} for q in off_topic
        ]
        instances.append({"id": f"p{n}", "passage": passage, "questions": questions})
    return json.dumps(instances).encode()


def _preferences() -> bytes:
    pair = {
        "pair": "p1",
        "document": "aura_doc.md",
        "set1": "aura_set1.txt",
        "set2": "aura_set2.txt",
        "votes": ["1", "1", "2"],
    }
    return (json.dumps(pair) + "\n").encode()


def _cqs_replies() -> list[tuple[tuple[tuple[str, str], ...], str]]:
    """Each request maieutic sends for the sample's interventions, answered with that
    intervention's first reference questions (scored with chrF: no model to load)."""
    from maieutic.integrations.bridge import Benchmark

    bench = Benchmark("cqs", evaluator="chrf")
    items = bench.items()
    return [
        (request.messages, "\n".join(q.cq for q in items[request.id].cqs[:3]))
        for request in bench.requests()
    ]


def _lm_eval_samples() -> bytes:
    """An lm-eval --log_samples file of maieutic_cqs, as its glue writes the documents."""
    lines = []
    for n, (messages, reply) in enumerate(_cqs_replies()):
        doc = {
            "task": "cqs",
            "options": json.dumps({"evaluator": "chrf"}),
            "item": f"i{n}",
            "messages": json.dumps(messages),
        }
        lines.append(json.dumps({"doc_id": n, "doc": doc, "filtered_resps": [reply]}))
    return ("\n".join(lines) + "\n").encode()


_ONE_RUN = threading.Lock()  # probes write their files from several threads at once


def _inspect_log() -> bytes:
    """An inspect_ai log of maieutic/cqs (chrF) with scripted replies, made once (inspect
    runs one evaluation at a time in a process)."""
    with _ONE_RUN:
        return _made_inspect_log()


@functools.cache
def _made_inspect_log() -> bytes:
    import tempfile

    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from maieutic.integrations.inspect_tasks import cqs

    answers = dict(_cqs_replies())

    def reply(messages, tools, tool_choice, config):
        asked = tuple((m.role, m.text) for m in messages)
        output = ModelOutput.from_content(model="mockllm", content=answers[asked])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    with tempfile.TemporaryDirectory() as folder:
        [log] = inspect_eval(
            cqs(evaluator="chrf"),
            model=get_model("mockllm/model", custom_outputs=reply),
            log_dir=folder,
            display="none",
        )
        return Path(log.location).read_bytes()


FILES: dict[str, Callable[[], bytes]] = {
    "cqs_data.json": lambda: _sample("cqs/samples/sample_dataset.json"),
    "cqs_sub.json": lambda: _sample("cqs/samples/sample_submission.json"),
    "cqs_sub2.json": lambda: _sample("cqs/samples/sample_submission.json"),
    "cqs_extra.json": _labelled_submission,
    "cqs_outputs.json": _labelled_outputs,
    "cqs_shots.json": lambda: _sample("cqs/samples/sample_dataset.json"),
    "cqs_schemes.jsonl": lambda: _sample("cqs/samples/schemes.jsonl"),
    "cqs_mapping.csv": lambda: b"my_labels,schemes_json\nERExample,Example\n",
    "focus_gold.csv": lambda: _focus_csv(predicted=False),
    "focus_pred.csv": lambda: _focus_csv(predicted=True),
    "dev_annotators_clarity.csv": _focus_annotators,
    "focus_shots.jsonl": lambda: _sample("focus/samples/shots.jsonl"),
    "compqa_questions.jsonl": lambda: _sample("compqa/samples/questions.jsonl").split(b"\n")[0],
    "compqa_shots.json": lambda: _sample("compqa/samples/shots.json"),
    "gpt4_scenario_1.json": lambda: json.dumps(_compqa_answers()).encode(),
    "one_scenario_2.json": lambda: json.dumps(_compqa_answers()[:1]).encode(),
    "humans.tsv": _compqa_humans,
    "hum1.tsv": lambda: _compqa_annotator(0),
    "hum2.tsv": lambda: _compqa_annotator(1),
    "aura_doc.md": lambda: AURA_DOC.encode(),
    "aura_passage.json": lambda: json.dumps({"passage": AURA_DOC}).encode(),
    "aura_set1.txt": lambda: (
        b"What moves water through the pipes?\nHow often is the filter cleaned?\n"
    ),
    "aura_set2.txt": lambda: b"Who won the football match?\nWhat moves water?\n",
    "aura_qgeval.json": _qgeval,
    "aura_prefs.jsonl": _preferences,
    "results.json": lambda: (OLD_OUTPUTS / "cqs-results-runs" / "results.json").read_bytes(),
    "ask_text.txt": lambda: b"We should ban cars downtown because pollution harms children.\n",
    "inspect_run.eval": _inspect_log,
    "lm_eval_samples.jsonl": _lm_eval_samples,
}


def write_files(folder: Path) -> None:
    """Write every input file of the table into ``folder``."""
    for name, make in FILES.items():
        (folder / name).write_bytes(make())

"""The library run layer (``maieutic.evaluate`` / ``maieutic.generate``): for every task,
the same inputs and options give the same results, specs and signatures as the command
line (compared field by field with the files the command writes); inputs as paths or
objects; DataFrames; option errors; a task with no hooks of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import maieutic
from maieutic.errors import DataError
from maieutic.samples import sample_path
from tests.conftest import SHARED_DATA
from tests.fake_server import FakeOpenAIServer

CQS_DATA = sample_path("cqs/sample_dataset.json")
CQS_SUBMISSION = sample_path("cqs/sample_submission.json")
AURA_DOC = SHARED_DATA / "aura" / "sample_input.json"
COMPQA_ANSWERS = SHARED_DATA / "compqa" / "llama3-8b_scenario_1.json"


def _json(value):
    """``value`` as it reads back from a file (tuples become lists…)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def _same_results(results_file: Path, evaluation) -> None:
    """Every result the command wrote equals the library's, but for provenance."""
    written = json.loads(results_file.read_text())
    assert written["task"] == evaluation.task
    api = _json(evaluation.to_json())
    assert len(written["results"]) == len(api["results"]) > 0
    for cli_result, api_result in zip(written["results"], api["results"], strict=True):
        assert api_result == cli_result
    assert api["repeated_runs"] == written["repeated_runs"]


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    return path


def _dev_submission(cqs_dev: Path, tmp_path: Path, n: int = 15) -> Path:
    """The first reference questions of ``n`` dev interventions, as a submission."""
    data = json.loads(cqs_dev.read_text())
    sub = {
        key: {
            "intervention_id": key,
            "cqs": [{"id": i, "cq": q["cq"]} for i, q in enumerate(item["cqs"][:3])],
        }
        for key, item in list(data.items())[:n]
    }
    path = tmp_path / "dev_sub.json"
    path.write_text(json.dumps(sub))
    return path


@pytest.mark.parametrize("evaluator", ["chrf", "sts"])
def test_cqs_evaluate_matches_the_cli_on_the_sample(cli, tmp_path, evaluator):
    out = tmp_path / "r.json"
    done = cli("evaluate", "cqs", "--data", CQS_DATA, CQS_SUBMISSION, "--evaluator", evaluator,
               "--out", out)  # fmt: skip
    assert done.code == 0, done.err
    evaluation = maieutic.evaluate("cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator=evaluator)
    _same_results(out, evaluation)
    assert evaluation.evaluator.name == evaluator
    assert evaluation["sample_submission"].signature.evaluator == evaluator


def test_cqs_evaluate_matches_the_cli_on_the_dev_data_with_options(cli, cqs_dev, tmp_path):
    submission = _dev_submission(cqs_dev, tmp_path)
    out = tmp_path / "r.json"
    done = cli("evaluate", "cqs", "--data", cqs_dev, submission, "--evaluator", "chrf",
               "--threshold", "40", "--out", out)  # fmt: skip
    assert done.code == 0, done.err
    evaluation = maieutic.evaluate(
        "cqs", cqs_dev, submissions=[submission], evaluator="chrf", threshold=40
    )
    _same_results(out, evaluation)
    assert evaluation[0].signature.threshold == 40


def test_focus_evaluate_matches_the_cli_with_annotators(cli, focus_dir, tmp_path):
    from maieutic.tasks.focus.annotators import attach_annotators
    from maieutic.tasks.focus.data import load_gold

    gold_path = focus_dir / "dev_gold.csv"
    preds = [focus_dir / "dev_pred_gpt4.csv", focus_dir / "dev_pred_gpt35.csv"]
    annotators = sorted(str(p) for p in focus_dir.glob("dev_annotators_*.csv"))
    out = tmp_path / "r.json"
    flags = [x for a in annotators for x in ("--annotators", a)]
    done = cli("evaluate", "focus", "--gold", gold_path, *preds, *flags, "--pairing", "positional",
               "--no-span-embedding", "--out", out)  # fmt: skip
    assert done.code == 0, done.err
    gold = attach_annotators(load_gold(gold_path), annotators)  # data given loaded
    evaluation = maieutic.evaluate(
        "focus",
        gold,
        submissions=preds,
        evaluator="type-span",
        pairing="positional",
        span_embedding=False,
    )
    _same_results(out, evaluation)
    assert set(evaluation.scores) == {"dev_pred_gpt4", "dev_pred_gpt35"}


def test_aura_evaluate_matches_the_cli_on_the_bundled_question_sets(cli, tmp_path):
    doc = _need(AURA_DOC)
    out = tmp_path / "r.json"
    done = cli("evaluate", "aura", doc, "--out", out)
    assert done.code == 0, done.err
    evaluation = maieutic.evaluate("aura", doc, evaluator="aura")  # the sets inside doc
    _same_results(out, evaluation)
    assert len(evaluation) == 2


def _first_answers(source: Path, target: Path, n: int = 3) -> Path:
    """The first ``n`` answers of a released answer file (the rules encode every
    sentence: a whole file takes a minute on two cores)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(json.loads(_need(source).read_text())[:n]))
    return target


def test_compqa_evaluate_matches_the_cli_on_a_folder(cli, tmp_path):
    folder = tmp_path / "answers"
    for scenario in ("1", "3"):
        name = f"llama3-8b_scenario_{scenario}.json"
        _first_answers(SHARED_DATA / "compqa" / name, folder / name)
    (folder / "x.meta.json").write_text("{}")  # generation records are left out
    out = tmp_path / "r.json"
    done = cli("evaluate", "compqa", folder, "--out", out)
    assert done.code == 0, done.err
    evaluation = maieutic.evaluate("compqa", None, submissions=folder, evaluator="rules")
    _same_results(out, evaluation)
    assert [r.submission for r in evaluation] == [
        "llama3-8b_scenario_1",
        "llama3-8b_scenario_3",
    ]


@pytest.mark.usefixtures("shared_home")
@pytest.mark.xdist_group("compqa-released")
@pytest.mark.slow
def test_compqa_evaluate_matches_the_cli_on_a_whole_released_file(cli, tmp_path):
    out = tmp_path / "r.json"
    done = cli("evaluate", "compqa", _need(COMPQA_ANSWERS), "--out", out)
    assert done.code == 0, done.err
    _same_results(
        out, maieutic.evaluate("compqa", None, submissions=[COMPQA_ANSWERS], evaluator="rules")
    )


def _meta(path: Path) -> dict:
    record = json.loads(path.read_text())
    record.pop("provenance")
    record.pop("model_calls", None)  # the library's run follows the command's: cached
    return record


def _same_generation(generation, written: list[tuple[Path, Path]]) -> None:
    """Each written output and its record (but for provenance) equal the library's."""
    assert len(generation.parts) == len(written)
    for part, (output, meta) in zip(generation.parts, written, strict=True):
        record = _json(part.record)
        record.pop("provenance")
        record.pop("model_calls", None)
        assert record == _meta(meta)
        if isinstance(part.output, list | dict):
            assert _json(part.output) == json.loads(output.read_text())


@pytest.mark.parametrize("generator", ["claims", "template"])
def test_cqs_generate_matches_the_cli(cli, tmp_path, generator):
    out = tmp_path / "sub.json"
    done = cli("generate", "cqs", "--data", CQS_DATA, "--generator", generator, "--out", out)
    assert done.code == 0, done.err
    generation = maieutic.generate("cqs", CQS_DATA, generator=generator)
    _same_generation(generation, [(out, tmp_path / "sub.meta.json")])
    assert generation.signature.generator == generator and not generation.failed


def test_cqs_generate_runs_and_limit_match_the_cli(cli, cqs_dev, tmp_path):
    out = tmp_path / "sub.json"
    done = cli("generate", "cqs", "--data", cqs_dev, "--generator", "template", "--runs", "2",
               "--limit", "4", "--out", out)  # fmt: skip
    assert done.code == 0, done.err
    generation = maieutic.generate("cqs", cqs_dev, generator="template", runs=2, limit=4)
    written = [(tmp_path / f"sub-run{k}.json", tmp_path / f"sub-run{k}.meta.json") for k in (1, 2)]
    _same_generation(generation, written)
    saved = generation.save(tmp_path / "again" / "sub.json")
    assert [p.name for p in saved] == ["sub-run1.json", "sub-run2.json"]
    assert saved[0].read_text() == written[0][0].read_text()


def test_focus_generate_matches_the_cli(cli, tmp_path):
    data = sample_path("focus/sample_arguments.jsonl")
    out = tmp_path / "pred.jsonl"
    done = cli("generate", "focus", "--data", data, "--out", out)
    assert done.code == 0, done.err
    generation = maieutic.generate("focus", data, generator="cues")
    _same_generation(generation, [(out, tmp_path / "pred.meta.json")])
    saved = generation.save(tmp_path / "api" / "pred.jsonl")
    assert [p.name for p in saved] == ["pred.jsonl", "pred.csv"]
    for written, again in zip([out, tmp_path / "pred.csv"], saved, strict=True):
        assert again.read_bytes() == written.read_bytes()


def test_aura_generate_matches_the_cli_with_a_fake_server(cli, tmp_path):
    doc = _need(AURA_DOC)
    out = tmp_path / "q.json"
    with FakeOpenAIServer() as server:
        remote = ("--base-url", server.base_url, "--llm", "m")
        done = cli("generate", "aura", "--document", doc, "--out", out, *remote)
        assert done.code == 0, done.err
        generation = maieutic.generate(
            "aura", doc, generator="llm", base_url=server.base_url, llm="m"
        )
    _same_generation(generation, [(out, tmp_path / "q.meta.json")])
    assert generation.uses_llm and generation.stats.cache_hits == generation.stats.requests


def test_compqa_generate_matches_the_cli_with_a_fake_server(cli, tmp_path):
    questions = sample_path("compqa/questions.jsonl")
    out = tmp_path / "answers"
    with FakeOpenAIServer(reply=lambda body: "Tea wins.") as server:
        remote = ("--base-url", server.base_url, "--llm", "m")
        done = cli("generate", "compqa", "--questions", questions, "--out", out, "--scenario", "1",
                   "--scenario", "4", *remote)  # fmt: skip
        assert done.code == 0, done.err
        # the command shows and uses the generator's own defaults (its 300 s timeout)
        generation = maieutic.generate(
            "compqa", questions, generator="llm", scenarios=["1", "4"],
            base_url=server.base_url, llm="m",
        )  # fmt: skip
    written = [(out / f"m_scenario_{s}.json", out / f"m_scenario_{s}.meta.json") for s in "14"]
    _same_generation(generation, written)
    saved = generation.save(tmp_path / "api", name="fake")
    assert [p.name for p in saved] == ["fake_scenario_1.json", "fake_scenario_4.json"]


def test_objects_in_frames_out(tmp_path):
    from maieutic.tasks.cqs.data import load_cq_dataset, load_submission

    dataset = load_cq_dataset(CQS_DATA)
    submission = load_submission(CQS_SUBMISSION)
    by_object = maieutic.evaluate("cqs", dataset, submissions=[submission], evaluator="chrf")
    by_path = maieutic.evaluate("cqs", CQS_DATA, submissions=[CQS_SUBMISSION], evaluator="chrf")
    assert by_object[0].summary == by_path[0].summary
    assert by_object[0].signature == by_path[0].signature
    items = by_path.to_frame()
    assert list(items["intervention_id"]) == [r["intervention_id"] for r in by_path[0].records()]
    questions = by_path.to_frame(explode="cqs")
    assert {"cqs.label", "cqs.similarity"} <= set(questions.columns)
    assert (questions["cqs"] == "Missing CQs").sum() == 1  # a row that is no list stays
    summary = by_path.summary_frame()
    assert summary.loc["sample_submission", "score"] == by_path[0].score
    assert summary.loc["sample_submission", "summary.labels.Useful"] == 7
    saved = by_path.save(tmp_path / "r.json")
    from maieutic.evaluate.results_file import load_results

    assert load_results(saved)[0].summary == _json(by_path[0].summary)
    generated = maieutic.generate("cqs", dataset, generator="template")
    frame = generated.to_frame()
    assert list(frame["intervention_id"]) == list(dataset.interventions)


def test_results_file_is_written_as_each_submission_is_scored(tmp_path):
    out = tmp_path / "r.json"
    seen = []
    maieutic.evaluate("cqs", CQS_DATA, submissions=[CQS_SUBMISSION], evaluator="chrf", out=out,
                      on_result=lambda r: seen.append(json.loads(out.read_text())))  # fmt: skip
    assert len(seen[0]["results"]) == 1
    with pytest.raises(DataError, match="is one of the input files"):
        maieutic.evaluate(
            "cqs", CQS_DATA, submissions=[CQS_SUBMISSION], evaluator="chrf", out=CQS_DATA
        )


def test_option_errors_are_data_errors():
    with pytest.raises(DataError, match="takes no option 'llm'"):
        maieutic.evaluate("cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator="chrf", llm="x")
    with pytest.raises(DataError, match="does not use a threshold"):
        maieutic.evaluate(
            "cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator="llm-label", threshold=0.5
        )
    with pytest.raises(DataError, match="name the evaluator of task 'cqs': one of sts, chrf"):
        maieutic.evaluate("cqs", CQS_DATA, submissions=CQS_SUBMISSION)
    with pytest.raises(DataError, match="outside"):
        maieutic.evaluate(
            "cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator="chrf", threshold=300
        )
    with pytest.raises(DataError, match="scores against reference data"):
        maieutic.evaluate("cqs", None, submissions=CQS_SUBMISSION, evaluator="chrf")
    with pytest.raises(DataError, match="no submissions"):
        maieutic.evaluate("cqs", CQS_DATA, submissions=[], evaluator="chrf")
    with pytest.raises(DataError, match="needs its directory"):
        maieutic.evaluate("cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator="scorer")
    with pytest.raises(DataError, match="unknown evaluator 'scorer:'"):
        maieutic.evaluate("cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator="scorer:")
    doubtful = maieutic.evaluate(
        "cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator="chrf", threshold=0.6
    )
    assert any("looks meant for a cosine" in w for w in doubtful.warnings)


def test_strict_refuses_flagged_input_before_any_work(tmp_path):
    with pytest.raises(DataError, match="--strict refuses"):
        maieutic.evaluate(
            "cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator="chrf", strict=True
        )
    bare = tmp_path / "q.txt"
    bare.write_text("What is better: tea or coffee?\n")
    with pytest.raises(DataError, match="has no arguments"):
        maieutic.generate("compqa", bare, generator="llm", scenarios=["2"], strict=True,
                          base_url="http://127.0.0.1:9/v1")  # fmt: skip


def test_compqa_evaluator_follows_the_evaluator_protocol(tmp_path):
    import inspect

    from maieutic.evaluate import Evaluator
    from maieutic.registry import create
    from maieutic.tasks.compqa.evaluate import load_answer_file

    scorer = create("evaluator", task="compqa", name="rules")
    wanted = inspect.signature(Evaluator.evaluate).parameters
    got = inspect.signature(type(scorer).evaluate).parameters
    assert list(got) == list(wanted)
    assert [p.kind for p in got.values()] == [p.kind for p in wanted.values()]
    answers = load_answer_file(_first_answers(COMPQA_ANSWERS, tmp_path / "a.json", 2))
    seen = []
    [result] = scorer.evaluate(None, [answers], on_result=seen.append)
    assert seen == [result] and result.evaluator.name == "rules" and scorer.failures == []


def test_a_task_without_hooks_runs_with_the_defaults(tmp_path):
    """A toy task that names no ``io``: one reference file, one file per submission."""
    from dataclasses import dataclass, field

    from maieutic.core import Task
    from maieutic.evaluate.base import BaseEvaluator
    from maieutic.evaluate.result import EvalResult
    from maieutic.registry import register
    from maieutic.signature import Signature

    @dataclass
    class Words:
        words: list[str]
        source: str
        name: str = "words"
        flags: list = field(default_factory=list)

    def load(path):
        return Words(Path(path).read_text().split(), str(path), Path(path).stem)

    @register("task", task="runtoy", name="runtoy")
    def toy_task() -> Task:
        return Task(name="runtoy", description="Words", load_reference=load, load_submission=load)

    class Overlap(BaseEvaluator):
        def evaluate_one(self, reference, submission):
            hits = [{"word": w, "hit": w in reference.words} for w in submission.words]
            score = sum(h["hit"] for h in hits) / len(hits)
            signature = Signature(task="runtoy", evaluator="overlap")
            return EvalResult(task="runtoy", submission=submission.name, source=submission.source,
                              signature=signature, evaluator=self.spec, score=score,
                              summary={"n": len(hits)}, items=hits)  # fmt: skip

    @register("evaluator", task="runtoy", name="overlap")
    def overlap() -> Overlap:
        return Overlap()

    (tmp_path / "ref.txt").write_text("a b c")
    (tmp_path / "sys.txt").write_text("a x")
    evaluation = maieutic.evaluate("runtoy", tmp_path / "ref.txt", submissions=tmp_path / "sys.txt")
    assert evaluation.scores == {"sys": 0.5}
    assert evaluation.to_frame()["hit"].tolist() == [True, False]
    assert evaluation.evaluator.to_json() == {
        "kind": "evaluator", "task": "runtoy", "name": "overlap", "args": {}
    }  # fmt: skip


def test_a_component_already_built_is_used_as_it_is(tmp_path):
    from maieutic.registry import create

    built = create("evaluator", task="cqs", name="chrf", threshold=40)
    run = maieutic.evaluate("cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator=built)
    assert run.evaluator == built.spec and run[0].signature.threshold == 40
    assert run.provenance["options"]["evaluator"] == "<CQEvaluator>"
    assert run.provenance["options"]["data"] == str(CQS_DATA)
    run.save(tmp_path / "r.json")  # the provenance is plain JSON
    with pytest.raises(DataError, match="already built"):
        maieutic.evaluate(
            "cqs", CQS_DATA, submissions=CQS_SUBMISSION, evaluator=built, threshold=30
        )
    generated = maieutic.generate(
        "cqs", CQS_DATA, generator=create("generator", task="cqs", name="template")
    )
    assert generated.record["provenance"]["options"]["via"] == "maieutic.generate"


def test_generate_writes_each_run_as_it_ends(tmp_path):
    out = tmp_path / "sub.json"
    seen = []

    def progress(label):
        from contextlib import nullcontext

        seen.append((label, sorted(p.name for p in tmp_path.iterdir())))
        return nullcontext(lambda done, total: None)

    generation = maieutic.generate(
        "cqs", CQS_DATA, generator="template", runs=2, out=out, progress=progress
    )
    assert seen == [("run 1/2", []), ("run 2/2", ["sub-run1.json", "sub-run1.meta.json"])]
    assert generation.written == [tmp_path / "sub-run1.json", tmp_path / "sub-run2.json"]
    assert json.loads((tmp_path / "sub-run2.meta.json").read_text())["run"] == 2
    with pytest.raises(DataError, match="out must be a path"):
        maieutic.generate("cqs", CQS_DATA, generator="template", out="-")


def test_aura_without_question_sets_says_so(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# Pump\nThe pump moves water through the pipes every morning.\n")
    with pytest.raises(DataError, match="no question sets: give SETS"):
        maieutic.evaluate("aura", doc, evaluator="aura")
    from maieutic.tasks.aura.data import read_document

    loaded = read_document(doc)  # given loaded, its file is still an input not to replace
    with pytest.raises(DataError, match="is one of the input files"):
        maieutic.evaluate("aura", loaded, submissions=[doc], evaluator="aura", out=doc)


@pytest.mark.parametrize("name", ["data.json", "link.json", "data-run1.json", "data.meta.json"])
def test_generate_never_writes_over_its_input(tmp_path, name):
    data = tmp_path / name if name != "link.json" else tmp_path / "data.json"
    data.write_bytes(sample_path("cqs/sample_dataset.json").read_bytes())
    before = data.read_bytes()
    out = tmp_path / "data.json"
    if name == "link.json":
        out = tmp_path / "link.json"
        out.symlink_to(data)
    with pytest.raises(DataError, match="would write over the input"):
        maieutic.generate("cqs", data, generator="template", runs=2, out=out)
    assert data.read_bytes() == before

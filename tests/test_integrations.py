"""The benchmarks inside evaluation frameworks, with the frameworks themselves (no mock
of them): inspect_ai's task run with its own mockllm model on scripted replies, the
lm-eval task functions, the ``datasets`` loader and ``maieutic import``.

The oracle of every number is ``maieutic evaluate cqs`` (the command) on the questions
the run kept; the end-to-end runs against the real llama.cpp server are in
``test_integrations_llm.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.integrations.bridge import CQsBenchmark
from maieutic.samples import sample_path

pytest.importorskip("inspect_ai", reason="needs maieutic[inspect]")

SAMPLE = sample_path("cqs/sample_dataset.json")
BIN = Path(sys.executable).parent


def useful_references(intervention) -> list[str]:
    return [q.cq for q in intervention.cqs if q.label == "Useful"]


def scripted_reply(messages) -> str:
    """The reply the mock model gives: the intervention's Useful references, one a line,
    so the labels are known (each matches itself, similarity 1)."""
    dataset = CQsBenchmark().dataset
    prompt = messages[-1].text
    for intervention in dataset.interventions.values():
        if intervention.intervention in prompt:
            return "Here are three questions:\n" + "\n".join(useful_references(intervention))
    raise AssertionError("the prompt holds no intervention of the sample")


@pytest.fixture(scope="module")
def mock_run(tmp_path_factory):
    """One inspect run of maieutic/cqs on the bundled sample with scripted replies."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from maieutic.integrations.inspect_tasks import cqs

    def reply(messages, tools, tool_choice, config):
        output = ModelOutput.from_content(model="mockllm", content=scripted_reply(messages))
        # a usage of its own: without one, mockllm counts tokens with tiktoken, which
        # downloads its encoding
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    folder = tmp_path_factory.mktemp("inspect")
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("MAIEUTIC_HOME", str(folder / "home"))
        patched.setenv("HOME", str(folder))
        model = get_model("mockllm/model", custom_outputs=reply)
        [log] = inspect_eval(cqs(), model=model, log_dir=str(folder / "logs"), display="none")
    return log, folder


def test_the_task_is_found_through_inspects_entry_points():
    from inspect_ai._util.registry import registry_lookup

    assert registry_lookup("task", "maieutic/cqs") is not None


def test_inspect_run_scores_each_reply_with_maieutics_labels(mock_run):
    log, _ = mock_run
    assert log.status == "success"
    bench = CQsBenchmark()
    assert len(log.samples) == len(bench.dataset.interventions)
    for sample in log.samples:
        [score] = sample.scores.values()
        kept = score.metadata["questions"]
        references = useful_references(bench.dataset.interventions[sample.id])
        # the generator's rule: the first three well-formed questions, the preamble
        # (no question mark) dropped
        assert kept and set(kept) <= set(references)
        assert score.metadata["labels"] == ["Useful"] * len(kept)
        assert score.value == pytest.approx(len(kept) / 3)
        assert sample.input[0].role == "system"  # the generator's system prompt


def test_the_prompt_is_the_llm_generators(mock_run):
    log, _ = mock_run
    bench = CQsBenchmark()
    context, _ = bench.generator.context_for(bench.dataset)
    for sample in log.samples:
        item = bench.dataset.interventions[sample.id]
        [strategy] = bench.generator.strategies
        sent = [(m.role, m.text) for m in sample.input]
        assert sent == [(m["role"], m["content"]) for m in strategy.messages(item, context)]


def test_the_logs_metric_is_maieutic_evaluate_on_its_questions(mock_run, cli, tmp_path):
    log, _ = mock_run
    results, submission = tmp_path / "results.json", tmp_path / "submission.json"
    imported = cli(
        "import", "inspect-log", log.location, "--out", results, "--submission", submission
    )
    assert imported.code == 0, imported.err
    evaluated = cli(
        "evaluate", "cqs", "--data", SAMPLE, "--evaluator", "sts", submission, "--out", "-"
    )
    assert evaluated.code == 0, evaluated.err
    metric = log.results.scores[0].metrics["overall"].value
    [official] = [r["score"] for r in json.loads(evaluated.out)["results"]]
    assert metric == pytest.approx(official, abs=1e-9)
    written = json.loads(results.read_text())
    assert written["results"][0]["score"] == pytest.approx(metric, abs=1e-9)
    assert log.eval.metadata["signature"] == written["results"][0]["signature_string"]


def test_importing_a_file_that_is_no_log_is_one_line(cli, tmp_path):
    bad = tmp_path / "run.eval"
    bad.write_text("not a zip")
    done = cli("import", "inspect-log", bad, "--out", tmp_path / "r.json")
    assert done.code == 2
    assert done.err.count("\n") == 1 and "not an inspect log" in done.err


def test_an_unknown_evaluator_is_refused_at_task_creation_with_the_names():
    from inspect_ai._util.error import PrerequisiteError

    from maieutic.integrations.inspect_tasks import cqs

    with pytest.raises(PrerequisiteError) as raised:
        cqs(evaluator="bleu")
    assert "unknown evaluator 'bleu'" in raised.value.message
    assert "sts" in raised.value.message and "usefulness" in raised.value.message


def test_a_missing_data_file_is_maieutics_line_in_inspects_report(tmp_path):
    done = subprocess.run(
        [
            *(BIN / "inspect", "eval", "maieutic/cqs", "-T", f"data={tmp_path / 'gone.json'}"),
            *("--model", "mockllm/model", "--log-dir", str(tmp_path / "logs")),
        ],
        capture_output=True,
        text=True,
        env={"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(tmp_path)},
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1
    assert f"maieutic: {tmp_path / 'gone.json'}: no such file" in output.replace("\n", "")
    assert "Traceback" not in output and "maieutic/" not in output.replace("maieutic/cqs", "")


def test_lm_eval_functions_score_as_maieutic_evaluate():
    from maieutic.integrations.lm_eval import glue

    docs = glue.dataset(version=1.0, data=str(SAMPLE), evaluator="sts")["test"]
    bench = CQsBenchmark(SAMPLE)
    assert [d["id"] for d in docs] == list(bench.dataset.interventions)
    assert docs[0]["system"] and docs[0]["user"].startswith("Write critical questions")
    items, questions = [], {}
    for doc in docs:
        useful = useful_references(bench.dataset.interventions[doc["id"]])
        [(metric, item)] = glue.process_results(doc, ["\n".join(useful)]).items()
        assert metric == "overall" and item["labels"] == ["Useful"] * len(item["questions"])
        items.append(item)
        questions[doc["id"]] = item["questions"]
    assert glue.overall(items) == pytest.approx(bench.evaluate(questions).score, abs=1e-9)


def test_lm_eval_include_path_holds_the_task():
    from maieutic.integrations.lm_eval.__main__ import main

    found = subprocess.run(
        [sys.executable, "-m", "maieutic.integrations.lm_eval", "path"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert (Path(found) / "maieutic_cqs.yaml").is_file()
    assert (Path(found) / "utils.py").is_file()
    assert main(["nonsense"]) == 2


def test_datasets_loader_reads_the_benchmark():
    from maieutic.errors import DataError
    from maieutic.integrations import hf

    rows = hf.load("cqs", split="validation", data=SAMPLE)
    bench = CQsBenchmark(SAMPLE)
    assert str(rows.split) == "validation"
    assert rows["id"] == list(bench.dataset.interventions)
    first = bench.dataset.interventions[rows[0]["id"]]
    assert rows[0]["text"] == first.intervention
    assert [r["label"] for r in rows[0]["references"]] == [q.label for q in first.cqs]
    assert list(rows.to_pandas().columns)[:4] == ["id", "text", "system", "user"]
    with pytest.raises(DataError, match="unknown task 'bleu'"):
        hf.load("bleu")


def test_a_folder_and_a_split_name_the_file(tmp_path):
    from maieutic.errors import DataError
    from maieutic.integrations.bridge import resolve_data

    (tmp_path / "validation-dev.json").write_text("{}")
    (tmp_path / "test-dev.json").write_text("{}")
    (tmp_path / "test-more.json").write_text("{}")
    assert resolve_data(tmp_path, split="validation").name == "validation-dev.json"
    with pytest.raises(DataError, match=r"found: test-dev\.json, test-more\.json"):
        resolve_data(tmp_path, split="test")
    with pytest.raises(DataError, match="needs a split"):
        resolve_data(tmp_path)

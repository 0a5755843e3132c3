"""The benchmarks inside evaluation frameworks, with the frameworks themselves (no mock
of them): inspect_ai's tasks run with its own mockllm model on scripted replies, the
lm-eval task functions and files, the ``datasets`` loader and ``maieutic import``.

The oracle of every number is the command line: ``maieutic evaluate TASK`` on the
output ``maieutic import … --out-submission`` writes (what ``maieutic generate`` writes for
the same replies). The end-to-end runs against the real llama.cpp server are in
``test_integrations_llm.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from maieutic.integrations.bridge import SPECS, Benchmark

pytest.importorskip("inspect_ai", reason="needs maieutic[inspect]")

BIN = Path(sys.executable).parent
CQS_SAMPLE = Benchmark("cqs").path


def useful_references(intervention) -> list[str]:
    return [q.cq for q in intervention.cqs if q.label == "Useful"]


def cqs_reply(prompt: str) -> str:
    """The intervention's Useful references, one a line after a preamble, so the labels
    are known (each matches itself, similarity 1)."""
    for intervention in Benchmark("cqs").items().values():
        if intervention.intervention in prompt:
            return "Here are three questions:\n" + "\n".join(useful_references(intervention))
    raise AssertionError("the prompt holds no intervention of the sample")


REPLIES = {
    "cqs": cqs_reply,
    "focus": lambda prompt: "Type: Overgeneralization\nSpan: everyone",
    "compqa": lambda prompt: "Python is simpler to read than Java, so beginners learn faster.",
    "aura": lambda prompt: "What wears the sprockets?\nWhy do hub gears weigh more?",
}


def run_with_mock(task: str, folder: Path, *, limit: int | None = None, **task_args):
    """One inspect run of maieutic/TASK on its bundled sample with scripted replies."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from maieutic.integrations import inspect_tasks

    def reply(messages, tools, tool_choice, config):
        text = REPLIES[task](messages[-1].text)
        output = ModelOutput.from_content(model="mockllm", content=text)
        # a usage of its own: without one, mockllm counts tokens with tiktoken, which
        # downloads its encoding
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("HOME", str(folder))
        model = get_model("mockllm/model", custom_outputs=reply)
        made = getattr(inspect_tasks, task)(**task_args)
        [log] = inspect_eval(
            made, model=model, log_dir=str(folder / "logs"), display="none", limit=limit
        )
    assert log.status == "success", log.error
    return log


@pytest.fixture(scope="module")
def mock_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inspect")
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("MAIEUTIC_HOME", str(folder / "home"))
        return {task: run_with_mock(task, folder) for task in SPECS}


def test_every_built_in_task_is_in_the_frameworks():
    """A task folder added without its framework declarations would silently stay out
    of inspect and lm-eval (docs/adding-a-task.md)."""
    from maieutic import registry
    from maieutic.integrations import inspect_tasks
    from maieutic.integrations.lm_eval import include_path

    built_in = {name for name, module in registry.task_modules().items()
                if module == f"maieutic.tasks.{name}"}  # fmt: skip
    assert {"cqs", "focus", "compqa", "aura"} <= built_in
    for task in sorted(built_in):
        assert task in SPECS, f"{task}: no BenchmarkSpec in integrations/bridge.py"
        assert callable(getattr(inspect_tasks, task, None)), f"{task}: no inspect @task"
        assert (Path(include_path()) / f"maieutic_{task}.yaml").is_file(), f"{task}: no YAML"


def test_the_tasks_are_found_through_inspects_entry_points():
    from inspect_ai._util.registry import registry_lookup

    for task in SPECS:
        assert registry_lookup("task", f"maieutic/{task}") is not None, task


def test_cqs_scores_each_reply_with_maieutics_labels(mock_runs):
    log = mock_runs["cqs"]
    interventions = Benchmark("cqs").items()
    assert sorted(s.id for s in log.samples) == sorted(interventions)
    for sample in log.samples:
        [score] = sample.scores.values()
        [record] = score.metadata["records"]
        kept = [q["cq"] for q in record["cqs"]]
        # the generator's rule: the preamble (no question mark) dropped, three kept
        assert kept and set(kept) <= set(useful_references(interventions[sample.id]))
        assert [q["label"] for q in record["cqs"]] == ["Useful"] * len(kept)
        assert score.value == pytest.approx(len(kept) / 3)
        assert sample.input[0].role == "system"


def test_each_sample_is_the_request_maieutic_sends(mock_runs):
    bench = Benchmark("cqs")
    sent = {i.id: i.messages for i in bench.requests()}
    context, _ = bench.generator(None).context_for(bench.data)
    [strategy] = bench.generator(None).strategies
    for sample in mock_runs["cqs"].samples:
        asked = tuple((m.role, m.text) for m in sample.input)
        assert asked == sent[sample.id]
        item = bench.items()[sample.id]
        assert asked == tuple((m["role"], m["content"]) for m in strategy.messages(item, context))


@pytest.mark.parametrize("task", list(SPECS))
def test_the_logs_figures_are_maieutic_evaluate_on_its_output(task, mock_runs, cli, tmp_path):
    log = mock_runs[task]
    spec = SPECS[task]
    results, output = tmp_path / "results.json", tmp_path / f"output{spec.suffix}"
    done = cli("import", "inspect-log", log.location, "--out", results, "--out-submission", output)
    assert done.code == 0, done.err
    bench = Benchmark(task)
    reference = {
        "cqs": ["--data", bench.path],
        "focus": ["--gold", bench.path],
        "compqa": [],
        "aura": [bench.path],
    }[task]
    # focus has one evaluator, and no --evaluator option
    chosen = [] if task == "focus" else ["--evaluator", spec.evaluator]
    evaluated = cli("evaluate", task, *reference, *chosen, output, "--out", "-")
    assert evaluated.code == 0, evaluated.err
    [official] = json.loads(evaluated.out)["results"]
    metrics = log.results.scores[0].metrics
    if official["score"] is None:  # CompQA's rules leave criteria unscored: no total
        assert metrics[spec.metric].value != metrics[spec.metric].value  # NaN
    else:
        assert metrics[spec.metric].value == pytest.approx(official["score"], abs=1e-9)
    [written] = json.loads(results.read_text())["results"]
    assert written["score"] == official["score"]
    if bench.signature() is not None:
        assert log.eval.metadata["signature"] == official["signature_string"]


def test_a_limited_run_names_what_it_scored(tmp_path, cli, monkeypatch):
    """Under --limit the task's metadata still describes the whole file (its signature
    counts every reference): the log says how many items the figures cover, and the
    import's signature is that of the items scored."""
    monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / "home"))
    log = run_with_mock("cqs", tmp_path, limit=1)
    total = len(Benchmark("cqs").items())
    assert total > 1
    metrics = log.results.scores[0].metrics
    assert metrics["items_scored"].value == 1
    assert log.eval.metadata["items"] == total
    assert f"all {total} items" in log.eval.metadata["signature_covers"]
    results = tmp_path / "results.json"
    done = cli("import", "inspect-log", log.location, "--out", results)
    assert done.code == 0, done.err
    [written] = json.loads(results.read_text())["results"]
    assert written["signature_string"] != log.eval.metadata["signature"]


def test_aura_asks_every_passage(mock_runs):
    [sample] = mock_runs["aura"].samples
    [score] = sample.scores.values()
    [item] = Benchmark("aura").requests()
    assert len(item.requests) == len(score.metadata["replies"]) > 1
    assert {q["question"] for q in score.metadata["records"]} == {
        "What wears the sprockets?",
        "Why do hub gears weigh more?",
    }


def test_compqa_judge_is_inspects_grader_role_and_import_replays_it(tmp_path, cli):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from maieutic.integrations.inspect_tasks import compqa

    seen = {"answer": 0, "judge": 0}
    # every criterion 1 where the rubric allows it (the rules decide theirs)
    verdict = json.dumps({str(c): 1 for c in range(1, 16)})

    def output(text):
        made = ModelOutput.from_content(model="mockllm", content=text)
        made.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return made

    def answer(messages, tools, tool_choice, config):
        seen["answer"] += 1
        return output("Python is simpler to read than Java, so beginners learn faster.")

    def judge(messages, tools, tool_choice, config):
        seen["judge"] += 1
        return output(verdict)

    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("HOME", str(tmp_path))
        [log] = inspect_eval(
            compqa(evaluator="rules+llm"),
            model=get_model("mockllm/model", custom_outputs=answer),
            model_roles={"grader": get_model("mockllm/grader", custom_outputs=judge)},
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert log.status == "success", log.error
    assert seen["answer"] == 3 and seen["judge"] == 3  # one rubric call an answer
    total = log.results.scores[0].metrics["rubric_total"].value
    assert total == total and 0 < total <= 19  # every criterion scored: a total
    for sample in log.samples:
        [score] = sample.scores.values()
        assert score.metadata["grader"] == "inspect/mockllm/grader"
        assert len(score.metadata["judged"]) == 1
    # brought back, the grader's judgements answer again (no model asked)
    results = tmp_path / "results.json"
    done = cli("import", "inspect-log", log.location, "--out", results)
    assert done.code == 0, done.err
    [written] = json.loads(results.read_text())["results"]
    assert written["score"] == pytest.approx(total, abs=1e-9)
    assert seen["judge"] == 3


def test_importing_a_file_that_is_no_log_is_one_line(cli, tmp_path):
    bad = tmp_path / "run.eval"
    bad.write_text("not a zip")
    done = cli("import", "inspect-log", bad, "--out", tmp_path / "r.json")
    assert done.code == 2
    assert done.err.count("\n") == 1 and "not an inspect log" in done.err


def test_an_unknown_evaluator_is_refused_at_task_creation_with_the_names():
    from inspect_ai._util.error import PrerequisiteError

    from maieutic.integrations.inspect_tasks import cqs, focus

    with pytest.raises(PrerequisiteError) as raised:
        cqs(evaluator="bleu")
    assert "unknown evaluator 'bleu'" in raised.value.message
    assert "sts" in raised.value.message and "usefulness" in raised.value.message
    with pytest.raises(PrerequisiteError) as raised:
        focus(strategy="chain-of-thought")
    assert "known: zero-shot, few-shot, cot" in raised.value.message


def test_an_option_a_task_does_not_take_is_refused_with_those_it_takes():
    from maieutic.errors import DataError
    from maieutic.integrations.options import benchmark_from

    with pytest.raises(DataError, match=r"focus takes no option threshold \(it takes: data,"):
        benchmark_from("focus", {"threshold": 0.5})


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
    # inspect's report wraps lines where it likes (at a space, or inside a long path)
    said = f"maieutic: {tmp_path / 'gone.json'}: no such file"
    assert "".join(said.split()) in "".join(output.split())
    assert "Traceback" not in output and "maieutic/" not in output.replace("maieutic/cqs", "")


def test_lm_eval_functions_score_as_maieutic_evaluate():
    from maieutic.integrations.lm_eval import glue

    docs = glue.documents("cqs", {"version": 1.0, "data": str(CQS_SAMPLE), "model": "x"})["test"]
    bench = Benchmark("cqs")
    assert [d["item"] for d in docs] == list(bench.items())
    assert docs[0]["system"] and docs[0]["user"].startswith("Write critical questions")
    items = []
    for doc in docs:
        reply = cqs_reply(doc["user"])
        results = glue.process_results(doc, [reply])
        assert set(results) == {"overall", "useful_rate", "nae_rate"}
        items.append(results["overall"])
    replies = {tuple(map(tuple, json.loads(i["messages"]))): i["reply"] for i in items}
    expected = bench.evaluate(replies)
    assert glue.figure("overall")(items) == pytest.approx(expected.score, abs=1e-9)
    assert expected.score > 0


def test_lm_eval_task_files_agree_with_the_benchmarks():
    from maieutic.integrations.lm_eval import include_path
    from maieutic.integrations.lm_eval.tasks import utils

    folder = include_path()
    for task, spec in SPECS.items():
        text = (folder / f"maieutic_{task}.yaml").read_text()
        config = yaml.safe_load(text.replace("!function ", ""))
        assert config["task"] == f"maieutic_{task}"
        names = [m["metric"] for m in config["metric_list"]]
        assert names == [spec.metric, *spec.figures]
        for name in names:
            assert callable(getattr(utils, name))
        params = Benchmark(task).params
        sampling = config["generation_kwargs"]
        assert sampling["max_gen_toks"] == params.max_tokens
        assert sampling["temperature"] == params.temperature
        assert callable(getattr(utils, f"{task}_dataset"))


def test_lm_eval_include_path_command():
    from maieutic.integrations.lm_eval.__main__ import main

    found = subprocess.run(
        [sys.executable, "-m", "maieutic.integrations.lm_eval", "path"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert (Path(found) / "maieutic_cqs.yaml").is_file()
    assert main(["nonsense"]) == 2


def test_datasets_loader_reads_the_benchmark():
    from maieutic.errors import DataError
    from maieutic.integrations import hf

    rows = hf.load("cqs", split="validation", data=CQS_SAMPLE)
    bench = Benchmark("cqs")
    assert str(rows.split) == "validation"
    assert rows["id"] == list(bench.items())
    first = bench.items()[rows[0]["id"]]
    assert rows[0]["text"] == first.intervention
    item = json.loads(rows[0]["item"])
    assert [q["label"] for q in item["cqs"]] == [q.label for q in first.cqs]
    assert list(rows.to_pandas().columns)[:4] == ["id", "text", "system", "user"]
    aura = hf.load("aura")
    assert len(json.loads(aura[0]["requests"])) > 1
    with pytest.raises(DataError, match="unknown task 'bleu'"):
        hf.load("bleu")


def test_a_folder_and_a_split_name_the_file(tmp_path):
    from maieutic.errors import DataError
    from maieutic.integrations.bridge import resolve_data

    (tmp_path / "validation-dev.json").write_text("{}")
    (tmp_path / "test-dev.json").write_text("{}")
    (tmp_path / "test-more.json").write_text("{}")
    assert resolve_data("cqs", tmp_path, split="validation").name == "validation-dev.json"
    with pytest.raises(DataError, match=r"found: test-dev\.json, test-more\.json"):
        resolve_data("cqs", tmp_path, split="test")
    with pytest.raises(DataError, match="needs a split"):
        resolve_data("cqs", tmp_path)


def test_the_docs_name_every_task_option_and_figure():
    from maieutic.integrations.options import OPTION_NAMES

    page = (Path(__file__).resolve().parents[1] / "docs" / "integrations.md").read_text()
    for task, spec in SPECS.items():
        assert f"`maieutic/{task}`" in page and f"`maieutic_{task}`" in page, task
        for name in (spec.metric, *spec.figures):
            assert f"`{name}`" in page, name
    for option in OPTION_NAMES:
        assert f"| `{option}` |" in page, option


def test_a_malformed_data_file_is_one_line_at_task_creation(tmp_path):
    from inspect_ai._util.error import PrerequisiteError

    from maieutic.integrations.inspect_tasks import cqs

    bad = tmp_path / "validation.json"
    bad.write_text('{"A_1": {"intervention_id": "A_1"}}')
    with pytest.raises(PrerequisiteError) as raised:
        cqs(data=str(bad))
    message = raised.value.message
    assert message.startswith(f"maieutic: {bad}") and "intervention" in message
    assert "\n" not in message


def test_a_document_with_no_question_is_scored_as_nothing_not_an_error(tmp_path, cli):
    """A model that writes no question for any passage: ``maieutic evaluate aura``
    refuses an empty set, so the run's figures are NaN with the reason in the sample's
    notes, and ``import`` refuses it in one line."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from maieutic.integrations.inspect_tasks import aura

    def reply(messages, tools, tool_choice, config):
        output = ModelOutput.from_content(model="mockllm", content="I cannot help with that.")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("HOME", str(tmp_path))
        [log] = inspect_eval(
            aura(),
            model=get_model("mockllm/model", custom_outputs=reply),
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert log.status == "success", log.error
    value = log.results.scores[0].metrics["aura"].value
    assert value != value  # NaN
    [sample] = log.samples
    [score] = sample.scores.values()
    assert not score.metadata["scored"]
    assert any("no questions in the set" in note for note in score.metadata["notes"])
    done = cli("import", "inspect-log", log.location, "--out", tmp_path / "r.json")
    assert done.code == 2 and "no questions in the set" in done.err
    assert not (tmp_path / "r.json").exists()


def test_a_route_without_its_extra_names_the_extra_to_install():
    from maieutic.errors import DataError
    from maieutic.integrations.extras import require

    with pytest.raises(
        DataError, match=r"^x needs no_such_framework: pip install 'maieutic\[inspect\]'"
    ):
        require("no_such_framework.log", extra="inspect", needed_by="x")


def test_an_empty_option_is_refused_not_read_as_the_default():
    from maieutic.errors import DataError
    from maieutic.integrations.options import benchmark_from

    with pytest.raises(DataError, match="unknown evaluator ''"):
        benchmark_from("cqs", {"evaluator": ""})
    with pytest.raises(DataError, match="data is empty"):
        benchmark_from("cqs", {"data": " "})
    with pytest.raises(DataError, match="threshold: expected a finite number, got nan"):
        benchmark_from("cqs", {"threshold": float("nan")})  # refused before anything is built


def test_an_import_never_writes_over_what_it_reads_or_one_output_over_the_other(cli, tmp_path):
    from maieutic.samples import sample_path

    # lm-eval's results file, beside the samples, is read for the framework's figure
    samples = tmp_path / "samples_maieutic_cqs_2026-12-07T10-00-00.jsonl"
    options = json.dumps({"data": str(sample_path("cqs/sample_dataset.json"))})
    doc = {"task": "cqs", "options": options, "messages": '[{"role": "user", "content": "q"}]'}
    samples.write_text(json.dumps({"doc": doc, "filtered_resps": ["1. Why?"]}) + "\n")
    results = tmp_path / "results_2026-12-07T10-00-00.json"
    results.write_text('{"results": {}}')
    done = cli("import", "lm-eval-samples", samples, "--out", results)
    assert done.code == 2 and "is one of the input files" in done.err, done.err
    assert results.read_text() == '{"results": {}}'
    # --out naming what --out-submission writes (the file itself, or its .meta.json)
    for out in (tmp_path / "sub.json", tmp_path / "sub.meta.json"):
        done = cli("import", "inspect-log", tmp_path / "run.eval", "--out", out,
                   "--out-submission", tmp_path / "sub.json")  # fmt: skip
        assert done.code == 2 and "one would replace the other" in done.err, done.err


@pytest.mark.parametrize(
    "arguments, said",
    [
        ({"treshold": 0.7}, "cqs takes no option treshold (it takes: data, split, strategy"),
        ({"threshold": "abc"}, "threshold: expected a number, got 'abc'"),
        ({"threshold": [0.6]}, "threshold: expected a number, got [0.6]"),
        ({"data": ""}, "data is empty"),
        ({"evaluator": " "}, "unknown evaluator ' '"),
    ],
)
def test_a_task_argument_misspelt_mistyped_or_empty_is_refused_in_one_line(arguments, said):
    from inspect_ai._util.error import PrerequisiteError

    from maieutic.integrations.inspect_tasks import cqs

    with pytest.raises(PrerequisiteError) as raised:
        cqs(**arguments)
    assert said in raised.value.message and "\n" not in raised.value.message


def test_the_model_inspect_always_passes_is_no_unknown_argument_and_no_group_is_an_error():
    from maieutic.integrations.inspect_tasks import benchmark_figures, cqs

    assert cqs(model="mockllm/model", threshold="0.7") is not None  # as -T gives it
    assert benchmark_figures()([]) == {}


@pytest.mark.parametrize("name", ["x" * 100_000, "a\udc80b", "two\nlines", " "])
def test_an_import_refuses_a_name_that_is_no_one_line_of_text(cli, tmp_path, name):
    done = cli("import", "inspect-log", tmp_path / "run.eval", "--out", tmp_path / "r.json",
               "--name", name)  # fmt: skip
    said = "--name: not UTF-8 text" if "\udc80" in name else "Invalid value for --name"
    assert done.code == 2 and said in done.err, done.err
    assert "Traceback" not in done.err and not (tmp_path / "r.json").exists()


def test_an_eval_log_that_would_inflate_past_the_limit_or_has_no_header_is_refused(
    cli, tmp_path, monkeypatch
):
    import zipfile

    bomb = tmp_path / "bomb.eval"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", b"{" + b" " * 20_000_000 + b"}")
    assert bomb.stat().st_size < 100_000
    monkeypatch.setenv("MAIEUTIC_MAX_INPUT_BYTES", "10000000")
    done = cli("import", "inspect-log", bomb, "--out", tmp_path / "r.json")
    assert done.code == 2 and "would inflate to 20,000,002 bytes" in done.err, done.err
    headless = tmp_path / "headless.eval"
    with zipfile.ZipFile(headless, "w") as archive:
        archive.writestr("samples/1_epoch_1.json", "{}")
    done = cli("import", "inspect-log", headless, "--out", tmp_path / "r.json")
    assert done.code == 2 and "has no header.json" in done.err, done.err
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize(
    "spoil, said",
    [
        (lambda m: m.update(replies=7), "its score's replies are not what a maieutic task writes"),
        (lambda m: m.update(replies=[["only one"]]), "its score's replies are not what"),
        (lambda m: m.update(replies=[[m["replies"][0][0], 5]]), "a reply is no text"),
        (lambda m: m.update(judged=[[1, 2]]), "judged records are not"),
        # inspect writes its logs as UTF-8: a lone surrogate comes as JSON's escape
        (lambda m: m.update(replies=[[m["replies"][0][0], "Why LONE?"]]), "not an inspect log"),
    ],
)
def test_a_log_whose_replies_are_malformed_is_refused_in_one_line(
    mock_runs, cli, tmp_path, spoil, said
):
    from inspect_ai.log import write_eval_log

    log = mock_runs["cqs"].model_copy(deep=True)
    [score] = log.samples[0].scores.values()
    spoil(score.metadata)
    path = tmp_path / "spoilt.json"
    write_eval_log(log, str(path), format="json")
    path.write_text(path.read_text().replace("LONE", "\\ud800"))
    done = cli("import", "inspect-log", path, "--out", tmp_path / "r.json")
    assert done.code == 2 and said in done.err and done.err.count("\n") == 1, done.err


@pytest.mark.parametrize("options", ["not json", "[1, 2]"])
def test_lm_eval_samples_whose_options_are_no_json_object_are_refused(cli, tmp_path, options):
    samples = tmp_path / "samples_maieutic_cqs_x.jsonl"
    doc = {"task": "cqs", "options": options, "messages": '[{"role": "user", "content": "q"}]'}
    samples.write_text(json.dumps({"doc": doc, "filtered_resps": ["1. Why?"]}) + "\n")
    done = cli("import", "lm-eval-samples", samples, "--out", tmp_path / "r.json")
    assert done.code == 2 and "doc.options is no JSON object" in done.err, done.err
    assert done.err.count("\n") == 1


def test_lm_eval_samples_whose_reply_is_no_text_are_refused(cli, tmp_path):
    samples = tmp_path / "samples_maieutic_cqs_x.jsonl"
    doc = {"task": "cqs", "options": "{}", "messages": '[{"role": "user", "content": "q"}]'}
    # json.dumps escapes the lone surrogate as JSON allows; json.loads gives it back
    samples.write_text(json.dumps({"doc": doc, "filtered_resps": ["1. Why\ud800?"]}) + "\n")
    out = tmp_path / "s.json"
    done = cli("import", "lm-eval-samples", samples, "--out", tmp_path / "r.json",
               "--out-submission", out)  # fmt: skip
    assert done.code == 2 and "line 1: the reply holds a lone surrogate" in done.err, done.err
    assert done.err.count("\n") == 1 and not out.exists()

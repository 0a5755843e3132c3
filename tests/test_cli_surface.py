"""The command line as a whole: help on every option, one meaning per option name,
options that do not apply are refused, and results go where they are asked to."""

from __future__ import annotations

import json
import os
import stat

import click
import pytest

from tests.cli_commands import leaves
from tests.conftest import write_json

DATASET = {
    "A_1": {
        "intervention_id": "A_1",
        "intervention": "We should do X because Y.",
        "cqs": [
            {"id": "r0", "cq": "Does Y really lead to X?", "label": "Useful"},
            {"id": "r1", "cq": "What is the weather like today?", "label": "Invalid"},
        ],
    }
}
SUBMISSION = {
    "A_1": {"intervention_id": "A_1", "cqs": [{"id": 0, "cq": "Does Y really lead to X?"}]}
}


COMMANDS = leaves()


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[p for p, _ in COMMANDS])
def test_every_option_has_help_and_no_bare_model_option(path, command):
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"maieutic {path} {param.opts[0]} has no help text"
            assert "--model" not in param.opts, f"maieutic {path}: use --llm or --embedding-model"
            assert "--metric" not in param.opts


def test_llm_options_are_refused_by_the_template_generator(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    for option, value in [("--strategy", "baseline"), ("--llm", "m"), ("--temperature", "0.2")]:
        for generator in ("template", "claims"):
            result = cli(
                "generate", "cqs", "--data", data, "--out", tmp_path / "o.json",
                "--generator", generator, option, value,
            )  # fmt: skip
            assert result.code == 2, option
            if option == "--llm":  # a model named: which generators take one
                assert f"--llm names a model, which the {generator} generator" in result.err
                assert "--generator model-first" in result.err
            else:
                assert f"{option} does not apply to the generator '{generator}'" in result.err


def test_embedding_options_are_refused_by_chrf(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    result = cli(
        "evaluate",
        "cqs",
        "--data",
        data,
        sub,
        "--evaluator",
        "chrf",
        "--embedding-model",
        "x",
    )
    assert result.code == 2
    assert "--embedding-model does not apply to the evaluator 'chrf'" in result.err


def test_out_dash_writes_results_to_stdout_and_tables_to_stderr(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    result = cli("evaluate", "cqs", "--data", data, sub, "--evaluator", "chrf", "--out", "-")
    assert result.code == 0, result.err
    payload = json.loads(result.out)
    assert payload["results"][0]["score"] == pytest.approx(1 / 3)
    assert "signature" in result.err  # the table went to stderr


def test_out_onto_a_device_node_never_replaces_it(tmp_path):
    from maieutic.data.files import write_json as write

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write(fifo, {"a": 1})
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a pipe, not a regular file
        assert json.loads(os.read(reader, 1000)) == {"a": 1}
    finally:
        os.close(reader)
    write("/dev/null", {"a": 1})
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_results_files_get_the_users_umask_not_0600(tmp_path):
    from maieutic.data.files import write_json as write

    old = os.umask(0o022)
    try:
        write(tmp_path / "new.json", {"a": 1})
        assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o644
        kept = tmp_path / "kept.json"
        kept.write_text("{}")
        os.chmod(kept, 0o640)
        write(kept, {"a": 2})
        assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640
    finally:
        os.umask(old)


def test_a_labelled_dataset_given_as_submission_is_refused(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    result = cli("evaluate", "cqs", "--data", data, data)
    assert result.code == 2
    assert "this is the labelled dataset, not a submission" in result.err
    assert "swapped" in result.err


def test_swapped_arguments_are_named(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    result = cli("evaluate", "cqs", "--data", sub, data)
    assert result.code == 2
    assert "s.json: this looks like a submission" in result.err


def test_strict_refuses_flagged_submissions_that_are_otherwise_scored(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(
        tmp_path / "s.json",
        {
            "A_1": {
                "intervention_id": "A_1",
                "cqs": [{"id": "x", "cq": q} for q in ("", "a?", "b?")],
            }
        },
    )
    out = tmp_path / "r.json"
    lenient = cli("evaluate", "cqs", "--data", data, sub, "--evaluator", "chrf", "--out", out)
    assert lenient.code == 0, lenient.err
    assert 'warning: s: "A_1".cqs[0].cq: empty question' in lenient.err
    flags = json.loads(out.read_text())["results"][0]["flags"]
    assert [f["code"] for f in flags] == ["empty-question", "repeated-id", "repeated-id"]
    strict = cli("evaluate", "cqs", "--data", data, sub, "--evaluator", "chrf", "--strict")
    assert strict.code == 2
    assert '"A_1".cqs[0].cq: empty question (and 2 more flagged problem(s))' in strict.err


def test_results_record_what_reproduces_them(cli, tmp_path):
    from maieutic.evaluate.results_file import load_results
    from maieutic.registry import rebuild

    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    out = tmp_path / "r.json"
    assert (
        cli(
            "evaluate",
            "cqs",
            "--data",
            data,
            sub,
            "--evaluator",
            "chrf",
            "--threshold",
            "42",
            "--out",
            out,
        ).code
        == 0
    )
    payload = json.loads(out.read_text())
    provenance = payload["provenance"]
    assert provenance["maieutic_version"]
    assert provenance["options"]["threshold"] == 42.0
    assert provenance["libraries"]["sacrebleu"]
    assert provenance["git"] is None or len(provenance["git"]["commit"]) == 40
    [result] = load_results(out)
    again = rebuild(result.evaluator)  # the recorded spec builds the same evaluator
    assert again.threshold == 42.0 and again.spec == result.evaluator


@pytest.mark.slow
def test_demo_shows_questions_with_their_labels_and_writes_every_file(cli, tmp_path):
    # the story itself (text, questions, scores, per block) is checked in test_demo_story
    result = cli("demo", "--out-dir", tmp_path)
    assert result.code == 0, result.err
    out = result.out
    assert "== CQs · " in out and "== FOCUS · " in out and "== CompQA · " in out
    assert "TOWN_BIKES_1" in out and "not_able_to_evaluate" in out
    payload = json.loads((tmp_path / "results.json").read_text())
    assert [r["submission"] for r in payload["results"]] == [
        "claims_generator",
        "sample_submission",
    ]
    # the FOCUS part: types, spans and questions for the sample arguments
    assert "weakness types, spans and Socratic questions" in out
    assert "Overgeneralized Statement" in out
    assert (tmp_path / "focus_cues.csv").exists()


def test_out_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path):
    from maieutic.data.files import write_json as write

    target = tmp_path / "real.json"
    target.write_text("{}")
    link = tmp_path / "stdout-like"
    link.symlink_to(target)
    write(link, {"a": 1})
    assert link.is_symlink() and json.loads(target.read_text()) == {"a": 1}


def test_out_dev_stdout_as_a_subprocess_keeps_the_device(tmp_path):
    import subprocess
    import sys

    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    captured = tmp_path / "captured.txt"
    with open(captured, "w") as handle:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "maieutic",
                "evaluate",
                "cqs",
                "--data",
                str(data),
                str(sub),
                "--evaluator",
                "chrf",
                "--out",
                "/dev/stdout",
            ],
            stdout=handle,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MAIEUTIC_HOME": str(tmp_path / "home")},
        )
    assert done.returncode == 0, done.stderr
    assert os.path.islink("/dev/stdout")
    # only the results went to standard output (the table went to stderr), whole
    assert json.loads(captured.read_text())["format"] == "maieutic.results/2"
    assert "signature" in done.stderr


def test_generation_needs_a_file_and_shots_need_the_fewshot_strategy(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    result = cli("generate", "cqs", "--data", data, "--out", "-")
    assert result.code == 2 and "--out must be a file path" in result.err
    result = cli(
        "generate",
        "cqs",
        "--data",
        data,
        "--out",
        tmp_path / "o.json",
        "--generator",
        "llm",
        "--shots",
        "2",
    )
    assert result.code == 2 and "--shots applies to --strategy fewshot only" in result.err


def test_plot_needs_sweep_and_a_chrf_threshold_like_a_cosine_is_questioned(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    result = cli(
        "meta-eval", "cqs", "--data", data, "--evaluator", "chrf", "--plot", tmp_path / "p.svg"
    )
    assert (
        result.code == 2
        and "--plot draws the threshold sweep or the curve: add --sweep or --curve" in result.err
    )
    result = cli(
        "meta-eval", "cqs", "--data", data, "--sweep", "--plot", tmp_path / "p.png"
    )  # matplotlib is gone: a PNG asked for is refused in one line, before any work
    assert result.code == 2 and "figures are written as SVG" in result.err
    assert not (tmp_path / "p.png").exists()
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    result = cli(
        "evaluate", "cqs", "--data", data, sub, "--evaluator", "chrf", "--threshold", "0.6"
    )
    assert result.code == 0
    assert "warning: --threshold 0.6 for chrf is on its 0–100 scale" in result.err


def test_official_layout_files_are_named_like_the_scripts_and_never_nest(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = write_json(tmp_path / "a" / "out.json", SUBMISSION)
    two = write_json(tmp_path / "b" / "out.json", SUBMISSION)
    official = tmp_path / "official"
    result = cli(
        "evaluate",
        "cqs",
        "--data",
        data,
        one,
        two,
        "--evaluator",
        "chrf",
        "--threshold",
        "40",
        "--official-out",
        official,
    )
    assert result.code == 0, result.err
    written = sorted(p.name for p in official.iterdir())
    assert len(written) == 2 and all(n.startswith("chrf_40_") for n in written)
    assert all(p.is_file() for p in official.iterdir())


def test_out_may_not_overwrite_an_input(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    result = cli("evaluate", "cqs", "--data", data, sub, "--evaluator", "chrf", "--out", sub)
    assert result.code == 2 and "is one of the input files" in result.err
    assert json.loads(sub.read_text()) == SUBMISSION


def test_compare_takes_each_option_for_the_evaluators_that_use_it(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", {"A_1": {"intervention_id": "A_1", "cqs": "Missing CQs"}})
    base = [
        "meta-eval",
        "cqs-compare",
        "--data",
        data,
        "--evaluator",
        "chrf",
        "--evaluator",
        "llm-label",
        sub,
    ]
    # --base-url and --llm belong to the judge; chrf simply does not get them
    result = cli(*base, "--base-url", "http://127.0.0.1:9/v1", "--llm", "x")
    assert result.code == 0, result.err
    result = cli(*base, "--embedding-model", "x")
    assert result.code == 2
    assert "--embedding-model applies to none of the evaluators 'chrf', 'llm-label'" in result.err


def test_a_null_reference_label_is_refused(tmp_path):
    from maieutic.errors import DataError
    from maieutic.tasks.cqs.data import load_cq_dataset

    broken = json.loads(json.dumps(DATASET))
    broken["A_1"]["cqs"][0]["label"] = None
    with pytest.raises(DataError, match="unknown label None"):
        load_cq_dataset(write_json(tmp_path / "d.json", broken))


def test_a_second_component_under_a_taken_name_is_refused():
    from maieutic.registry import register

    def sts():
        return None

    with pytest.raises(ValueError, match="already registered"):
        register("evaluator", task="cqs", name="sts")(sts)

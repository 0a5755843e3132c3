"""The framework routes end to end against the real llama.cpp server the tests start
(SmolLM2 on a loopback port): inspect_ai through its OpenAI-compatible provider, and
lm-eval's ``local-chat-completions`` on a 5-intervention slice. Each run's own metric
must equal ``maieutic evaluate`` on the questions brought back from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.integrations.bridge import SPECS, Benchmark
from tests.conftest import CQS_DEV

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent

REFERENCE_ARGUMENTS = {
    "cqs": lambda path: ["--data", path],
    "focus": lambda path: ["--gold", path],
    "compqa": lambda path: [],
    "aura": lambda path: [path],
}
"""How ``maieutic evaluate TASK`` is told the data the run read."""


def _official_score(cli, data: Path, output: Path) -> float:
    done = cli("evaluate", "cqs", "--data", data, "--evaluator", "sts", output, "--out", "-")
    assert done.code == 0, done.err
    [result] = json.loads(done.out)["results"]
    return result["score"]


@pytest.mark.parametrize("task", list(SPECS))
def test_inspect_against_the_real_server(task, llama_server, cli, tmp_path, monkeypatch):
    pytest.importorskip("inspect_ai", reason="needs maieutic[inspect]")
    from inspect_ai import eval as inspect_eval

    from maieutic.integrations import inspect_tasks

    monkeypatch.setenv("LOCAL_BASE_URL", llama_server.base_url)
    monkeypatch.setenv("LOCAL_API_KEY", "none")
    monkeypatch.setenv("HOME", str(tmp_path))
    [log] = inspect_eval(
        getattr(inspect_tasks, task)(),
        model="openai-api/local/smollm2",
        # FOCUS's macro-F1 is over every gold argument (one with no prediction counts as
        # None of the Above): all five, so that the command line sees the same items
        limit=None if task == "focus" else 2,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    assert all(s.output.completion for s in log.samples)  # the model really answered
    spec = SPECS[task]
    output = tmp_path / f"output{spec.suffix}"
    done = cli(
        "import",
        "inspect-log",
        log.location,
        "--out",
        tmp_path / "r.json",
        "--out-submission",
        output,
    )
    assert done.code == 0, done.err
    bench = Benchmark(task)
    reference = REFERENCE_ARGUMENTS[task](bench.path)
    chosen = [] if task == "focus" else ["--evaluator", spec.evaluator]
    evaluated = cli("evaluate", task, *reference, *chosen, output, "--out", "-")
    assert evaluated.code == 0, evaluated.err
    [official] = json.loads(evaluated.out)["results"]
    metric = log.results.scores[0].metrics[spec.metric].value
    if official["score"] is None:  # CompQA's rules alone leave the total undefined
        assert metric != metric
    else:
        assert metric == pytest.approx(official["score"], abs=1e-9)


def test_lm_eval_against_the_real_server(llama_server, cli, tmp_path):
    pytest.importorskip("lm_eval", reason="needs maieutic[lm-eval]")
    if not CQS_DEV.exists():
        pytest.skip(f"needs the shared data ({CQS_DEV})")
    out = tmp_path / "runs"
    done = subprocess.run(
        [
            BIN / "lm_eval",
            "--include_path",
            subprocess.check_output(
                [sys.executable, "-m", "maieutic.integrations.lm_eval", "path"], text=True
            ).strip(),
            "--tasks",
            "maieutic_cqs",
            "--model",
            "local-chat-completions",
            "--apply_chat_template",
            "--model_args",
            f"base_url={llama_server.base_url}/chat/completions,model=smollm2,"
            "tokenizer_backend=none",
            "--limit",
            "5",
            "--metadata",
            json.dumps({"data": str(CQS_DEV)}),
            "--log_samples",
            "--output_path",
            str(out),
        ],
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "HOME": str(tmp_path),
            "HF_DATASETS_OFFLINE": "1",
            "HF_HUB_OFFLINE": "1",
        },
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    [samples] = out.glob("*/samples_maieutic_cqs_*.jsonl")
    [results] = out.glob("*/results_*.json")
    aggregate = json.loads(results.read_text())["results"]["maieutic_cqs"]["overall,none"]
    lines = [json.loads(line) for line in samples.read_text().splitlines()]
    assert len(lines) == 5
    submission = tmp_path / "submission.json"
    imported = cli(
        "import",
        "lm-eval-samples",
        samples,
        "--out",
        tmp_path / "r.json",
        "--out-submission",
        submission,
    )
    assert imported.code == 0, imported.err
    assert aggregate == pytest.approx(_official_score(cli, CQS_DEV, submission), abs=1e-9)


def test_lm_eval_reports_a_missing_data_file_in_one_line(tmp_path):
    pytest.importorskip("lm_eval", reason="needs maieutic[lm-eval]")
    from maieutic.integrations.lm_eval import include_path

    gone = tmp_path / "gone.json"
    done = subprocess.run(
        [
            *(BIN / "lm_eval", "--include_path", str(include_path()), "--tasks", "maieutic_cqs"),
            *("--model", "local-chat-completions", "--limit", "1"),
            *("--model_args", "base_url=http://127.0.0.1:9/v1/chat/completions,model=x"),
            *("--metadata", json.dumps({"data": str(gone)})),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(tmp_path), "HF_DATASETS_OFFLINE": "1"},
        timeout=300,
    )
    assert done.returncode != 0
    assert f"ValueError: maieutic: {gone}: no such file" in done.stderr

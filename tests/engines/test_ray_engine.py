"""The Ray engine on a local Ray instance (2 CPUs): the same files as the in-process
engine, resumption after a killed run, failures recorded, embeddings bit for bit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import maieutic
from maieutic.engines import RayOptions
from tests.conftest import plan_interventions, write_json
from tests.fake_server import FakeOpenAIServer, Fault

pytestmark = pytest.mark.slow
ray = pytest.importorskip("ray", reason="the ray engine needs: pip install 'maieutic[ray]'")

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
SMALL = RayOptions(actors=2, batch_rows=3, shard_rows=4, num_cpus=2)


@pytest.fixture(scope="module")
def ray_address():
    from maieutic.engines.ray_session import start_ray

    start_ray(num_cpus=2)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def _interventions(tmp_path: Path, n: int = 10, marked: int | None = None) -> Path:
    return write_json(tmp_path / "items.json", plan_interventions(n, marked))


def _generate(monkeypatch, tmp_path, engine, task, data, out, **options):
    monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / f"home-{engine}"))  # no shared cache
    return maieutic.generate(
        task, data, generator="llm", out=out, engine=engine, ray=SMALL, **options
    )


def _same_files(local: Path, remote: Path) -> None:
    """Every output byte for byte; each .meta.json equal but for the provenance."""
    names = sorted(p.name for p in local.iterdir())
    assert names == sorted(p.name for p in remote.iterdir())  # no shards left behind
    for name in names:
        if name.endswith(".meta.json"):
            a, b = (json.loads((d / name).read_text()) for d in (local, remote))
            assert b["provenance"]["engine"]["name"] == "ray"
            assert a["provenance"]["engine"] == {"name": "local"}
            a.pop("provenance"), b.pop("provenance")
            assert a == b, name
        else:
            assert (local / name).read_bytes() == (remote / name).read_bytes(), name


def test_cqs_generation_on_ray_writes_what_the_local_engine_writes(
    ray_address, monkeypatch, tmp_path
):
    data = _interventions(tmp_path, 11)
    with FakeOpenAIServer() as server:
        options = {"llm": "fake", "base_url": server.base_url, "temperature": 0.0}
        for engine in ("local", "ray"):
            out = tmp_path / engine / "cqs.json"
            _generate(monkeypatch, tmp_path, engine, "cqs", data, out, **options)
    _same_files(tmp_path / "local", tmp_path / "ray")


@pytest.mark.parametrize(
    ("task", "path", "options"),
    [
        ("focus", "focus/dev_gold.csv", {"limit": 9}),
        ("compqa", "compqa/llama3-8b_scenario_1.json", {"limit": 7, "scenarios": ["1", "3"]}),
    ],
)
def test_focus_and_compqa_generation_on_ray_match_too(
    ray_address, monkeypatch, tmp_path, task, path, options
):
    data = SHARED / path
    if not data.exists():
        pytest.skip(f"shared data not found at {data}")
    with FakeOpenAIServer() as server:
        for engine in ("local", "ray"):
            target = tmp_path / engine / ("out" if task == "compqa" else "out.json")
            _generate(monkeypatch, tmp_path, engine, task, data, target,
                      llm="fake", base_url=server.base_url, temperature=0.0, **options)  # fmt: skip
    if task == "compqa":
        _same_files(tmp_path / "local" / "out", tmp_path / "ray" / "out")
    else:
        _same_files(tmp_path / "local", tmp_path / "ray")


def test_a_failing_row_is_recorded_and_the_job_goes_on(ray_address, cli, tmp_path):
    data = _interventions(tmp_path, 8, marked=5)
    out = tmp_path / "out.json"
    with FakeOpenAIServer() as server:
        server.fail_matching("FAILME", *[Fault(kind="status", status=400)] * 3)
        result = cli(
            "generate", "cqs", "--data", data, "--out", out, "--generator", "llm",
            "--llm", "fake", "--base-url", server.base_url, "--retries", "0",
            "--engine", "ray", "--ray-actors", "2",
        )  # fmt: skip
    assert result.code == 1
    assert "1 intervention(s) failed" in result.err and "R_05" in result.err
    written = json.loads(out.read_text())
    assert written["R_05"]["cqs"] == "Missing CQs"
    assert all(len(written[f"R_{i:02d}"]["cqs"]) == 3 for i in range(8) if i != 5)
    meta = json.loads(out.with_name("out.meta.json").read_text())
    assert list(meta["failed"]) == ["R_05"] and "400" in meta["failed"]["R_05"]


_KILLED_RUN = """
import sys
import maieutic
from maieutic.engines import RayOptions
maieutic.generate("cqs", sys.argv[1], generator="llm", out=sys.argv[2], llm="fake",
                  base_url=sys.argv[3], concurrency=1, engine="ray",
                  ray=RayOptions(actors=1, batch_rows=1, shard_rows=1))
"""


def test_a_killed_run_resumes_from_its_shards(ray_address, monkeypatch, tmp_path):
    n = 12
    data = _interventions(tmp_path, n)
    out = tmp_path / "resumed" / "cqs.json"
    shards = out.with_name("cqs.json.shards") / "run1"
    with FakeOpenAIServer(delay_s=0.3) as server:
        env = dict(os.environ, MAIEUTIC_HOME=str(tmp_path / "home-killed"), RAY_ADDRESS=ray_address)
        proc = subprocess.Popen(
            [sys.executable, "-c", _KILLED_RUN, str(data), str(out), server.base_url],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while len(list(shards.glob("part-*.jsonl"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert not out.exists()  # killed before the end
        done = len(list(shards.glob("part-*.jsonl")))
        assert 2 <= done < n
        before = len(server.requests)
        # a fresh model-call cache: only the shards can spare the finished rows
        monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / "home-resumed"))
        maieutic.generate("cqs", data, generator="llm", out=out, llm="fake",
                          base_url=server.base_url, engine="ray", ray=SMALL)  # fmt: skip
        assert len(server.requests) - before == n - done
        assert not shards.parent.exists()  # the shards go once the files are written
        clean = tmp_path / "clean" / "cqs.json"
        _generate(monkeypatch, tmp_path, "local", "cqs", data, clean,
                  llm="fake", base_url=server.base_url)  # fmt: skip
    assert out.read_bytes() == clean.read_bytes()


def test_cqs_sts_evaluation_on_ray_gives_the_same_labels_and_similarities(
    ray_address, monkeypatch, tmp_path
):
    dev = SHARED / "cqs" / "validation-dev.json"
    if not dev.exists():
        pytest.skip(f"shared data not found at {dev}")
    reference = dict(list(json.loads(dev.read_text()).items())[:8])
    data = write_json(tmp_path / "ref.json", reference)
    submissions = []
    for k in range(2):
        picked = {
            key: {
                "intervention_id": key,
                "cqs": [{"id": n, "cq": f"{q['cq']} ({k})"} for n, q in enumerate(item["cqs"][:3])],
            }
            for key, item in reference.items()
        }
        submissions.append(write_json(tmp_path / f"s{k}.json", picked))
    frames = {}
    for engine in ("local", "ray"):
        monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / f"eval-{engine}"))  # both encode
        run = maieutic.evaluate(
            "cqs", data, submissions=submissions, evaluator="sts", engine=engine, ray=SMALL
        )
        assert run.provenance["engine"]["name"] == engine
        frames[engine] = run.to_frame()
    assert frames["local"].equals(frames["ray"])  # labels, references and similarities


def test_generation_against_the_real_llama_server_matches_at_temperature_0(
    ray_address, monkeypatch, tmp_path, llama_server
):
    pytest.importorskip("llama_cpp", reason="the llama.cpp server needs: maieutic setup-llm")
    from maieutic.llm.server import SERVED_MODEL_NAME

    dev = SHARED / "cqs" / "validation-dev.json"
    if not dev.exists():
        pytest.skip(f"shared data not found at {dev}")
    server = llama_server  # one for the session (conftest)
    # one request at a time on both engines: a llama.cpp server batching concurrent
    # requests may round differently, which is the server's doing, not the engine's
    options = {"llm": SERVED_MODEL_NAME, "base_url": server.base_url, "temperature": 0.0,
               "max_tokens": 96, "limit": 4, "concurrency": 1}  # fmt: skip
    for engine in ("local", "ray"):
        out = tmp_path / engine / "cqs.json"
        monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / f"home-{engine}"))
        one = RayOptions(actors=1, batch_rows=2, num_cpus=2)
        maieutic.generate(
            "cqs", str(dev), generator="llm", out=out, engine=engine, ray=one, **options
        )
    _same_files(tmp_path / "local", tmp_path / "ray")


def test_warnings_that_count_the_whole_input_count_it_on_ray(ray_address, monkeypatch, tmp_path):
    """The claims generator warns how many texts its ranker learned from: on Ray, in
    batches of 3, the count is still the whole input's."""
    dev = SHARED / "cqs" / "validation-dev.json"
    if not dev.exists():
        pytest.skip(f"shared data not found at {dev}")
    warned = {}
    for engine in ("local", "ray"):
        monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / f"home-{engine}"))
        done = maieutic.generate("cqs", str(dev), generator="claims", limit=10, engine=engine,
                                 ray=SMALL, out=tmp_path / engine / "cqs.json")  # fmt: skip
        warned[engine] = [w for w in done.warnings if "claim ranker's training data" in w]
    assert warned["local"] == warned["ray"] == [warned["local"][0]]  # one count, the whole's
    assert int(warned["ray"][0].split()[0]) > 3  # more than any batch of 3 holds
    _same_files(tmp_path / "local", tmp_path / "ray")


def test_a_parquet_corpus_on_ray_gives_what_its_json_gives_locally(
    ray_address, monkeypatch, tmp_path
):
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    data = _interventions(tmp_path, 9)
    rows = [
        {k: v for k, v in r.items() if k != "cqs"} for r in json.loads(data.read_text()).values()
    ]
    parquet = tmp_path / "corpus.parquet"
    pq.write_table(pa.Table.from_pylist(rows), parquet)
    with FakeOpenAIServer() as server:
        options = {"llm": "fake", "base_url": server.base_url}
        _generate(monkeypatch, tmp_path, "local", "cqs", data, tmp_path / "local" / "o.json",
                  **options)  # fmt: skip
        _generate(monkeypatch, tmp_path, "ray", "cqs", parquet, tmp_path / "ray" / "o.json",
                  **options)  # fmt: skip
    _same_files(tmp_path / "local", tmp_path / "ray")


def test_few_shot_examples_drawn_from_the_input_are_the_whole_inputs_on_ray(
    ray_address, monkeypatch, tmp_path
):
    """Without --shots-from the examples come from the data being generated for: each
    batch must draw them from the whole input, as one in-process run does."""
    dev = SHARED / "cqs" / "validation-dev.json"
    if not dev.exists():
        pytest.skip(f"shared data not found at {dev}")
    with FakeOpenAIServer() as server:
        options = {"llm": "fake", "base_url": server.base_url, "strategies": ["fewshot"],
                   "limit": 9, "seed": 1}  # fmt: skip
        for engine in ("local", "ray"):
            out = tmp_path / engine / "cqs.json"
            _generate(monkeypatch, tmp_path, engine, "cqs", str(dev), out, **options)
    _same_files(tmp_path / "local", tmp_path / "ray")


def test_a_resumed_run_tries_failed_model_calls_again(ray_address, monkeypatch, tmp_path):
    from maieutic.engines.shards import shard_folder
    from maieutic.run.engine import Engine

    data = _interventions(tmp_path, 6, marked=2)
    out = tmp_path / "o.json"
    # keep the shards (the lock released, as when a run is killed)
    monkeypatch.setattr(Engine, "written", lambda self, out, run_index: self._unlock(run_index))
    with FakeOpenAIServer() as server:
        server.fail_matching("FAILME", Fault(kind="status", status=400))  # once: the retry succeeds
        first = _generate(monkeypatch, tmp_path, "ray", "cqs", data, out,
                          llm="fake", base_url=server.base_url, retries=0)  # fmt: skip
        assert [o.intervention_id for _, o in first.failed] == ["R_02"]
        assert shard_folder(out, 0).is_dir()
        before = len(server.requests)
        monkeypatch.setenv("MAIEUTIC_HOME", str(tmp_path / "home-again"))
        again = maieutic.generate("cqs", data, generator="llm", out=out, llm="fake", retries=0,
                                  base_url=server.base_url, engine="ray", ray=SMALL)  # fmt: skip
        assert len(server.requests) - before == 1  # only the failed row
    assert not again.failed
    assert len(json.loads(out.read_text())["R_02"]["cqs"]) == 3


def test_a_corpus_on_ray_is_streamed_through_a_store_and_writes_the_local_files(
    ray_address, monkeypatch, tmp_path
):
    """Ids out of sorted order, two runs: the corpus path (items and outcomes read from
    a store on disk) writes the local engine's bytes and signature, and its scratch
    store goes with the generation."""
    import gc

    from maieutic.engines.ray_corpus import StoredOutcomes

    records = json.loads(_interventions(tmp_path, 13).read_text())
    shuffled = dict(sorted(records.items(), key=lambda kv: (int(kv[0][2:]) * 7) % 13))
    data = write_json(tmp_path / "shuffled.json", shuffled)
    with FakeOpenAIServer() as server:
        options = {"llm": "fake", "base_url": server.base_url, "temperature": 0.7, "runs": 2}
        done = {}
        for engine in ("local", "ray"):
            out = tmp_path / engine / "cqs.json"
            done[engine] = _generate(monkeypatch, tmp_path, engine, "cqs", data, out, **options)
    assert all(isinstance(run.outcomes, StoredOutcomes) for run in done["ray"].runs)
    assert not any(isinstance(run.outcomes, StoredOutcomes) for run in done["local"].runs)
    assert str(done["ray"].signature) == str(done["local"].signature)
    _same_files(tmp_path / "local", tmp_path / "ray")
    corpus = tmp_path / "home-ray" / "corpus"
    assert corpus.is_dir()  # held while the generation is
    del done
    gc.collect()
    assert not corpus.exists()


def test_a_focus_corpus_in_the_native_layout_is_streamed_on_ray_too(
    ray_address, monkeypatch, tmp_path
):
    from maieutic.engines.ray_corpus import StoredOutcomes
    from maieutic.tasks.focus.data import load_arguments
    from maieutic.tasks.focus.write import to_jsonl

    gold = SHARED / "focus" / "dev_gold.csv"
    if not gold.exists():
        pytest.skip(f"shared data not found at {gold}")
    lines = to_jsonl(load_arguments(gold)).splitlines()[:9]
    data = tmp_path / "arguments.jsonl"
    data.write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    with FakeOpenAIServer() as server:
        done = {}
        for engine in ("local", "ray"):
            target = tmp_path / engine / "out.json"
            options = {"llm": "fake", "base_url": server.base_url, "temperature": 0.0}
            done[engine] = _generate(
                monkeypatch, tmp_path, engine, "focus", data, target, **options
            )
    assert isinstance(done["ray"].runs[0].outcomes, StoredOutcomes)
    _same_files(tmp_path / "local", tmp_path / "ray")

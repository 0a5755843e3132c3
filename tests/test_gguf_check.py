"""A damaged GGUF file given as ``--llm FILE.gguf`` is one line naming the file and
saying what is wrong, at once: no runtime loads it (llama.cpp's check, then a
transformers fallback, spent 29 s before failing with a message naming its folder)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from maieutic.errors import DataError, RunError
from maieutic.llm.backends import embedded
from maieutic.llm.backends.factory import make_backend
from maieutic.llm.backends.gguf_check import check_gguf, required_size
from maieutic.llm.backends.local import smollm2_gguf_path
from tests.conftest import plan_interventions, write_json

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def packaged() -> Path:
    try:
        return smollm2_gguf_path()
    except RunError as exc:  # the model package is absent
        pytest.skip(str(exc))


def _cut(source: Path, folder: Path, size: int) -> Path:
    path = folder / f"model-{size}.gguf"
    with open(source, "rb") as whole, open(path, "wb") as short:
        shutil.copyfileobj(whole, short)
        short.truncate(size)
    return path


def test_the_packaged_model_is_as_long_as_its_header_says(packaged):
    assert required_size(packaged) == packaged.stat().st_size
    assert check_gguf(packaged) is None


@pytest.mark.parametrize("keep", [0.999999, 0.5, 0.02, 100 / 98362432])
def test_a_file_cut_short_is_incomplete(packaged, tmp_path, keep):
    size = int(packaged.stat().st_size * keep)
    said = check_gguf(_cut(packaged, tmp_path, size))
    assert said is not None and said.startswith("is incomplete: "), said
    assert f"{size:,}" in said


def test_a_file_that_is_no_gguf_says_so(tmp_path):
    path = tmp_path / "weights.gguf"
    path.write_bytes(b"<html>Not Found</html>")
    assert check_gguf(path).startswith("is not a GGUF model file")


def _hostile(folder: Path, body: bytes) -> Path:
    path = folder / "hostile.gguf"
    # GGUF v3, no tensors, one metadata entry, then the entry's key and value
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + body)
    return path


@pytest.mark.parametrize(
    "body",
    [
        # a key whose length is 2**64 - 1 (an OverflowError before the check was bounded)
        struct.pack("<Q", 2**64 - 1) + b"key",
        # an array of 2**62 uint32 values (a MemoryError)
        struct.pack("<Q", 3) + b"key" + struct.pack("<IIQ", 9, 4, 2**62),
        # an array of 2**62 strings, each claiming to be long
        struct.pack("<Q", 3) + b"key" + struct.pack("<IIQQ", 9, 8, 2**62, 2**63),
    ],
)
def test_a_hostile_header_is_refused_in_one_line_with_bounded_memory(tmp_path, body):
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    said = check_gguf(_hostile(tmp_path, body))
    assert said is not None and said.startswith("is incomplete: it ends inside its header")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # KB


def test_no_runtime_is_tried_on_an_incomplete_file(packaged, tmp_path, monkeypatch):
    path = _cut(packaged, tmp_path, packaged.stat().st_size // 2)
    tried = []
    monkeypatch.setattr(embedded, "TransformersGGUFBackend", lambda p: tried.append(p))
    monkeypatch.setattr(embedded, "LocalLlamaBackend", lambda p: tried.append(p))
    import maieutic.llm.probe as probe

    monkeypatch.setattr(probe, "llamacpp_works", lambda p: tried.append(p))
    monkeypatch.setattr(probe, "require_llamacpp", lambda p: tried.append(p))
    for runtime in (None, "llamacpp", "transformers"):
        if runtime:
            monkeypatch.setenv(embedded.RUNTIME_ENV, runtime)
        with pytest.raises(DataError) as caught:
            make_backend("local", model=str(path))
        assert str(caught.value).startswith(f"--llm {path}: the model file is incomplete")
    assert tried == []


@pytest.mark.slow
def test_generate_with_an_incomplete_gguf_is_one_line(packaged, tmp_path):
    path = _cut(packaged, tmp_path, packaged.stat().st_size // 2)
    data = write_json(tmp_path / "data.json", plan_interventions(2))
    argv = ["generate", "cqs", "--data", str(data), "--out", str(tmp_path / "out.json")]
    done = subprocess.run(
        [sys.executable, "-m", "maieutic", *argv, "--generator", "llm", "--llm", str(path)],
        capture_output=True,
        text=True,
        env={"MAIEUTIC_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
        | {"PYTHONPATH": str(REPO / "src"), "HF_HUB_OFFLINE": "1"},
        timeout=300,
    )
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, done.stderr
    errors = [line for line in lines if "error" in line]
    assert len(errors) == 1 and str(path) in errors[0] and "incomplete" in errors[0], lines
    assert "Traceback" not in done.stderr and "transformers" not in done.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize(
    "counts, said",
    [
        # 2**40 entries over a long run of zeros: each zero entry (empty key, one byte)
        # fits, so the old check stepped through 15 M of them; the count alone refuses
        ((0, 2**40), "its header claims 1,099,511,627,776 metadata entries"),
        ((2**40, 0), "its header claims 1,099,511,627,776 tensors"),
    ],
)
def test_a_count_no_model_has_is_refused_without_stepping_through_it(tmp_path, counts, said):
    path = tmp_path / "zeros.gguf"
    with open(path, "wb") as f:
        f.write(b"GGUF" + struct.pack("<IQQ", 3, *counts))
        f.truncate(200_000_000)  # a hole: no disk, all zeros
    assert check_gguf(path) == f"is not a GGUF model file: {said} (damaged?)"


def test_a_tensor_with_more_dimensions_than_ggml_allows_is_refused(tmp_path):
    path = tmp_path / "dims.gguf"
    tensor = struct.pack("<Q", 1) + b"t" + struct.pack("<I", 2**32 - 1)
    with open(path, "wb") as f:
        f.write(b"GGUF" + struct.pack("<IQQ", 3, 1, 0) + tensor)
        f.truncate(200_000_000)
    said = check_gguf(path)
    assert (
        said == "is not a GGUF model file: a tensor claims 4,294,967,295 dimensions (ggml allows 4)"
    )

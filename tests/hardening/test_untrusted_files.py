"""Matrix groups H, I and J: files that come from someone else.

- H: an lm-eval samples file and an inspect log of a maieutic task, with every field
  that ``maieutic import`` reads replaced by a value of each wrong type (none, a number,
  a list, an object, empty text, text holding a lone surrogate);
- I: an inspect ``.eval`` archive damaged as archives are: cut short, a member's bytes
  flipped, its header missing, renamed or no JSON, a member whose name climbs out of
  the folder, members named twice;
- J: the packaged GGUF model with each integer of its header (version, counts, every
  metadata entry's key length, value type and array length, the first tensors' name
  lengths, dimensions, types and offsets) set to each hostile value.

Each probe must end as every probe of the matrix does: exit 0, or one error line with
exit 1 or 2, no traceback, its input unchanged and nothing written where it was not
asked to write. The GGUF check must answer (a reason, or None) within a bounded amount
of memory. The groups are generated from real files, so a field added to what a task
writes, or to the model file, is probed as soon as it exists.
"""

from __future__ import annotations

import copy
import json
import resource
import shutil
import struct
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.hardening.probing import Outcome, error_problems

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

WRONG: dict[str, Any] = {
    "none": None,
    "a number": 7,
    "a list": [1],
    "an object": {"a": 1},
    "empty text": "",
    "a lone surrogate": "Why\ud800?",
}
"""A field's value of each wrong type."""


def _field_paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every field under ``value`` (of a list, its first two entries)."""
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _field_paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:2]):
            yield from _field_paths(inner, (*prefix, index))


def _replaced(value: Any, path: tuple, new: Any) -> Any:
    changed = copy.deepcopy(value)
    holder = changed
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = new
    return changed


def _problems(result: Any, folder: Path, before: set[str], inputs: dict[Path, bytes]) -> list:
    problems = error_problems(Outcome([], result.code, result.out, result.err, 0.0), (0, 1, 2))
    problems += [f"input changed: {p.name}" for p, data in inputs.items() if p.read_bytes() != data]
    extra = {p.name for p in folder.iterdir()} - before - {"r.json", "s.json", "s.meta.json"}
    return problems + ([f"wrote {sorted(extra)}"] if extra else [])


def _probe(cli: Any, folder: Path, command: list[str], source: Path) -> list[str]:
    before = {p.name for p in folder.iterdir()}
    inputs = {p: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    outputs = ["--out", folder / "r.json", "--out-submission", folder / "s.json"]
    try:
        result = cli(*command, source, *outputs)
    except Exception as error:  # in-process, a traceback is an exception
        return [f"traceback: {type(error).__name__}: {str(error)[:160]}"]
    return _problems(result, folder, before, inputs)


def _report(found: dict[str, list[str]], total: int) -> str:
    lines = [f"{case}: {'; '.join(p)}" for case, p in found.items()]
    return f"{len(found)} of {total} probes failed:\n" + "\n".join(lines)


# -- H: wrong-typed fields ---------------------------------------------------------------


@pytest.fixture(scope="module")
def lm_eval_sample() -> dict[str, Any]:
    """One line of an lm-eval ``--log_samples`` file of maieutic_cqs, as lm-eval writes it."""
    from maieutic.integrations.lm_eval import glue

    doc = dict(glue.documents("cqs", {})["test"][0])
    reply = "1. Why is that so?\n2. Who says so?\n3. What if it is not?"
    return {"doc_id": 0, "doc": doc, "target": "", "resps": [[reply]], "filtered_resps": [reply]}


def test_h_lm_eval_samples_with_wrong_typed_fields(cli, tmp_path, lm_eval_sample):
    found: dict[str, list[str]] = {}
    paths = [p for p in _field_paths(lm_eval_sample) if p[0] in ("doc", "filtered_resps")]
    assert ("doc", "options") in paths and ("filtered_resps", 0) in paths
    total = 0
    for path in paths:
        for kind, value in WRONG.items():
            folder = tmp_path / f"{'.'.join(map(str, path))}-{kind}".replace(" ", "_")
            folder.mkdir()
            line = json.dumps(_replaced(lm_eval_sample, path, value))
            source = folder / "samples_maieutic_cqs_2026-01-01T00-00-00.jsonl"
            source.write_text(line + "\n", encoding="utf-8")
            total += 1
            if problems := _probe(cli, folder, ["import", "lm-eval-samples"], source):
                found[f"{'.'.join(map(str, path))} = {kind}"] = problems
    assert not found, _report(found, total)


@pytest.fixture(scope="module")
def inspect_log(tmp_path_factory) -> dict[str, Any]:
    """A real inspect log of maieutic/cqs (mockllm's scripted replies), as JSON."""
    pytest.importorskip("inspect_ai", reason="needs maieutic[inspect]")
    from inspect_ai.log import write_eval_log

    from tests.test_integrations import run_with_mock

    folder = tmp_path_factory.mktemp("inspect-log")
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("MAIEUTIC_HOME", str(folder / "home"))
        log = run_with_mock("cqs", folder, limit=2)
    path = folder / "log.json"
    write_eval_log(log, str(path), format="json")
    return json.loads(path.read_text(encoding="utf-8"))


def _inspect_paths(log: dict[str, Any]) -> list[tuple]:
    """The fields ``import inspect-log`` reads: the task's arguments and metadata, the
    first sample's score metadata, the headline metric."""
    [scorer] = log["samples"][0]["scores"]
    roots = [
        ("eval", "task_args"),
        ("eval", "metadata"),
        ("samples", 0, "scores", scorer, "metadata"),
        ("results", "scores", 0, "metrics"),
    ]
    paths = []
    for root in roots:
        holder = log
        for key in root:
            holder = holder[key]
        paths += [root] + [(*root, *p) for p in _field_paths(holder) if len(p) <= 3]
    return paths


def test_h_inspect_logs_with_wrong_typed_fields(cli, tmp_path, inspect_log):
    paths = _inspect_paths(inspect_log)
    assert any(p[-1] == "replies" for p in paths) and ("eval", "task_args") in paths
    found: dict[str, list[str]] = {}
    total = 0
    for number, path in enumerate(paths):
        for kind, value in WRONG.items():
            folder = tmp_path / f"{number}-{kind}".replace(" ", "_")
            folder.mkdir()
            source = folder / "log.json"
            source.write_text(json.dumps(_replaced(inspect_log, path, value)), encoding="utf-8")
            total += 1
            if problems := _probe(cli, folder, ["import", "inspect-log"], source):
                found[f"{'.'.join(map(str, path))} = {kind}"] = problems
    assert not found, _report(found, total)


# -- I: damaged archives -----------------------------------------------------------------


def _rezipped(source: Path, target: Path, change: Any) -> None:
    """``source``'s members written to ``target`` through ``change(name, data)``, which
    gives the (name, data) pairs to write instead."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            for name, data in change(info.filename, old.read(info)):
                new.writestr(name, data)


def _flipped(source: Path, target: Path, at: float) -> None:
    data = bytearray(source.read_bytes())
    index = int(len(data) * at)
    data[index] ^= 0xFF
    target.write_bytes(bytes(data))


ARCHIVE_DAMAGE = {
    "cut at 10%": lambda s, t: t.write_bytes(s.read_bytes()[: len(s.read_bytes()) // 10]),
    "cut at 50%": lambda s, t: t.write_bytes(s.read_bytes()[: len(s.read_bytes()) // 2]),
    "cut at 95%": lambda s, t: t.write_bytes(s.read_bytes()[: len(s.read_bytes()) * 95 // 100]),
    "a byte flipped at 5%": lambda s, t: _flipped(s, t, 0.05),
    "a byte flipped at 40%": lambda s, t: _flipped(s, t, 0.4),
    "a byte flipped at 80%": lambda s, t: _flipped(s, t, 0.8),
    "header no JSON": lambda s, t: _rezipped(
        s, t, lambda n, d: [(n, b"\x00not json" if n == "header.json" else d)]
    ),
    "header an array": lambda s, t: _rezipped(
        s, t, lambda n, d: [(n, b"[1, 2]" if n == "header.json" else d)]
    ),
    "header renamed": lambda s, t: _rezipped(
        s, t, lambda n, d: [("Header.json" if n == "header.json" else n, d)]
    ),
    "samples gone": lambda s, t: _rezipped(
        s, t, lambda n, d: [] if n.startswith("samples/") else [(n, d)]
    ),
    "a sample no JSON": lambda s, t: _rezipped(
        s, t, lambda n, d: [(n, b"{" if n.startswith("samples/") else d)]
    ),
    "a member climbing out": lambda s, t: _rezipped(
        s,
        t,
        lambda n, d: [(n, d)] + ([("../../escaped.json", b"{}")] if n == "header.json" else []),
    ),
    "members named twice": lambda s, t: _rezipped(s, t, lambda n, d: [(n, d), (n, d)]),
    "empty archive": lambda s, t: zipfile.ZipFile(t, "w").close(),
}


@pytest.fixture(scope="module")
def eval_archive(tmp_path_factory, inspect_log) -> Path:
    from inspect_ai.log import read_eval_log, write_eval_log

    folder = tmp_path_factory.mktemp("eval-archive")
    (folder / "log.json").write_text(json.dumps(inspect_log), encoding="utf-8")
    path = folder / "log.eval"
    write_eval_log(read_eval_log(str(folder / "log.json")), str(path), format="eval")
    return path


def test_i_damaged_eval_archives(cli, tmp_path, eval_archive):
    import warnings

    found: dict[str, list[str]] = {}
    for number, (case, damage) in enumerate(ARCHIVE_DAMAGE.items()):
        folder = tmp_path / str(number) / "in"
        folder.mkdir(parents=True)
        source = folder / "log.eval"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile's "Duplicate name"
            damage(eval_archive, source)
        if problems := _probe(cli, folder, ["import", "inspect-log"], source):
            found[case] = problems
        if (tmp_path / str(number) / "escaped.json").exists() or (
            tmp_path / "escaped.json"
        ).exists():
            found.setdefault(case, []).append("a member was written outside")
    assert not found, _report(found, len(ARCHIVE_DAMAGE))


# -- J: hostile GGUF headers -------------------------------------------------------------

HOSTILE = (0, 2**32 - 1, 2**63, 2**64 - 1)


def _integer_fields(path: Path) -> tuple[list[tuple[str, int, int]], int]:
    """(name, offset, size) of each integer of the header that the groups probe (the
    version and counts, every metadata entry's integers up to the first element of an
    array, and the integers of the first three tensors' entries), and where the
    header ends."""
    import gguf

    reader = gguf.GGUFReader(str(path))
    base = reader.data.ctypes.data
    fields = [("version", 4, 4), ("tensor count", 8, 8), ("entry count", 16, 8)]

    def integers(name: str, parts: list, keep: int) -> None:
        for index, part in enumerate(parts[:keep]):
            if part.dtype.kind in "ui" and part.dtype.itemsize >= 4 and part.size == 1:
                offset = part.ctypes.data - base
                fields.append((f"{name} part {index}", int(offset), part.dtype.itemsize))

    for name, field in reader.fields.items():
        if name.startswith("GGUF."):
            continue  # the version and counts, above
        integers(name, field.parts, 6)  # key length, key, type, [array type, count, first]
    for tensor in reader.tensors[:3]:
        integers(f"tensor {tensor.name}", tensor.field.parts, len(tensor.field.parts))
    return fields, int(reader.data_offset)


@pytest.fixture(scope="module")
def packaged_gguf() -> Path:
    from maieutic.errors import RunError
    from maieutic.llm.backends.local import smollm2_gguf_path

    pytest.importorskip("gguf", reason="needs maieutic[llm]")
    try:
        return smollm2_gguf_path()
    except RunError as exc:
        pytest.skip(str(exc))


def test_j_hostile_gguf_headers(tmp_path, packaged_gguf):
    from maieutic.llm.backends.gguf_check import check_gguf

    fields, header_end = _integer_fields(packaged_gguf)
    assert len(fields) > 60 and any("tokenizer.ggml.tokens" in f[0] for f in fields)
    header = _head(packaged_gguf, header_end)
    path = tmp_path / "hostile.gguf"
    with open(path, "wb") as out:  # the header, then a hole as long as the real file
        out.write(header)
        out.truncate(packaged_gguf.stat().st_size)
    found: dict[str, list[str]] = {}
    total = 0
    with open(path, "r+b") as patched:
        for name, offset, size in fields:
            for value in HOSTILE:
                total += 1
                patched.seek(offset)
                patched.write(struct.pack("<I" if size == 4 else "<Q", value % 2 ** (size * 8)))
                patched.flush()
                before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                try:
                    said = check_gguf(path)
                except Exception as error:  # the check exists to refuse in one line
                    found[f"{name} = {value}"] = [f"raised {type(error).__name__}: {error}"]
                    said = None
                grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
                if grown > 200_000:  # KB
                    found.setdefault(f"{name} = {value}", []).append(f"took {grown:,} KB")
                if said is not None and ("\n" in said or len(said) > 400):
                    found.setdefault(f"{name} = {value}", []).append(f"said {said[:200]!r}")
            patched.seek(offset)
            patched.write(header[offset : offset + size])
    assert not found, _report(found, total)


def _head(path: Path, size: int) -> bytes:
    with open(path, "rb") as source:
        return source.read(size)


def test_the_archive_group_damages_a_readable_archive(cli, tmp_path, eval_archive):
    # the undamaged archive imports: the damage, not the archive, is what is refused
    folder = tmp_path / "whole"
    folder.mkdir()
    shutil.copy(eval_archive, folder / "log.eval")
    result = cli("import", "inspect-log", folder / "log.eval", "--out", folder / "r.json")
    assert result.code == 0, result.err

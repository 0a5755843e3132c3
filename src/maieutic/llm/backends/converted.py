"""The GGUF model as transformers loads it, kept on disk after the first conversion.

Loading a GGUF with transformers takes about 25 s on 2 cores for a 135M model: the
``gguf`` reader parses the whole vocabulary three times (config, tokenizer, weights)
and the tensors are dequantised one by one. The result is an ordinary float32 model,
so maieutic saves it once as safetensors under ``MAIEUTIC_HOME/models`` and later
loads it from there in well under a second. The weights are bit-identical (float32,
nothing re-quantised), so replies and cache identity do not change. The directory is
keyed by the GGUF file (name, size, modification time) and the versions of the
libraries that convert it; older conversions of the same file are removed.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from maieutic.errors import RunError
from maieutic.llm.backends.hf import HFBackend
from maieutic.paths import maieutic_home

DIGEST_CHARS = 16  # of the key's hex digest, at the end of a directory's name


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "none"


def converted_dir(gguf: Path) -> Path:
    """Where the converted model of ``gguf`` is kept."""
    stat = gguf.stat()
    parts = [gguf.name, str(stat.st_size), str(stat.st_mtime_ns)]
    parts += [f"{p}={_version(p)}" for p in ("transformers", "gguf", "torch")]
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:DIGEST_CHARS]
    return maieutic_home() / "models" / f"{gguf.stem}-{digest}"


def _save(backend: HFBackend, target: Path) -> None:
    """Write the loaded model into ``target`` atomically (a whole directory or none)."""
    tok, model = backend.tokenizer_and_model()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}."))
    try:
        # the model is no longer quantised (transformers dequantised it on load), but it
        # still says so: save_pretrained would refuse, and the saved config would claim it
        model.hf_quantizer = None
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        os.replace(tmp, target)
    except Exception:  # a conversion that cannot be saved only makes the next load slower
        shutil.rmtree(tmp, ignore_errors=True)
        return
    stale_name = re.escape(target.name[:-DIGEST_CHARS]) + f"[0-9a-f]{{{DIGEST_CHARS}}}"
    for stale in target.parent.iterdir():
        if stale != target and re.fullmatch(stale_name, stale.name):
            shutil.rmtree(stale, ignore_errors=True)


def open_gguf(gguf: Path) -> HFBackend:
    """A loaded transformers backend for ``gguf``: from the saved conversion when there
    is one, otherwise converted from the GGUF now (and saved for next time)."""
    target = converted_dir(gguf)
    if target.is_dir():
        backend = HFBackend(str(target))
        try:
            backend.load()
            return backend
        except RunError:  # damaged on disk: convert again
            shutil.rmtree(target, ignore_errors=True)
    backend = HFBackend(str(gguf.parent), gguf_file=gguf.name)
    backend.load()
    _save(backend, target)
    return backend

"""An onnxruntime encoder for transformer + pooling sentence-embedding models.

sentence-transformers' own ONNX backend exports through the ``optimum`` family of
packages, which pins transformers versions that conflict with the current stack. A
transformer with mean or CLS pooling is small enough to export ourselves with
``torch.onnx`` and run with onnxruntime; the exported file is kept under
``MAIEUTIC_HOME/onnx`` so the export (a few seconds) happens once per model.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path

import numpy as np

from maieutic.errors import RunError
from maieutic.paths import maieutic_home

_SUPPORTED_MODULES = {
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
}


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


class FastTokenizer:
    """A model's ``tokenizer.json`` behind the calls the encoders make of a transformers
    tokenizer: ``tokenizer(texts, padding=…, truncation=…, max_length=…,
    return_tensors="np")`` gives ``input_ids``, ``attention_mask`` and
    ``token_type_ids``, padded with the file's pad id. The same ids: transformers'
    fast tokenizers run this very file."""

    def __init__(self, path: Path) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(path))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        padding = json.loads(path.read_text(encoding="utf-8")).get("padding") or {}
        self.pad_id = int(padding.get("pad_id", 0))

    def __call__(
        self,
        texts: list[str],
        *,
        padding: bool = False,
        truncation: bool = False,
        max_length: int | None = None,
        add_special_tokens: bool = True,
        return_tensors: str | None = None,
    ) -> dict:
        rows = self._tokenizer.encode_batch(list(texts), add_special_tokens=add_special_tokens)
        ids = [row.ids for row in rows]
        types = [row.type_ids for row in rows]
        if truncation and max_length:
            # as transformers cuts a single text: keep the first max_length - 1 pieces
            # and the closing special piece
            ids = [r if len(r) <= max_length else [*r[: max_length - 1], r[-1]] for r in ids]
            types = [t[: len(r)] for t, r in zip(types, ids, strict=True)]
        if not padding:
            return {"input_ids": ids, "token_type_ids": types}
        width = max((len(r) for r in ids), default=0)
        out = {
            "input_ids": np.full((len(ids), width), self.pad_id, dtype=np.int64),
            "attention_mask": np.zeros((len(ids), width), dtype=np.int64),
            "token_type_ids": np.zeros((len(ids), width), dtype=np.int64),
        }
        for i, (row, kinds) in enumerate(zip(ids, types, strict=True)):
            out["input_ids"][i, : len(row)] = row
            out["attention_mask"][i, : len(row)] = 1
            out["token_type_ids"][i, : len(row)] = kinds
        return out


class OnnxSentenceEncoder:
    """Tokenise, run the exported transformer, pool, and L2-normalise."""

    def __init__(self, onnx_path: Path, *, model_dir: Path, pooling: str, max_length: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(
            str(onnx_path), options, providers=["CPUExecutionProvider"]
        )
        self.input_names = {i.name for i in self.session.get_inputs()}
        fast = model_dir / "tokenizer.json"
        if fast.exists():
            # the model's own fast tokenizer file, read by the tokenizers library alone:
            # importing transformers for it would cost seconds of every cold run
            self.tokenizer = FastTokenizer(fast)
        else:
            from transformers import AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
        self.pooling = pooling
        self.max_length = max_length

    @classmethod
    def from_sentence_transformer(cls, source: str, *, cache_key: str) -> OnnxSentenceEncoder:
        """Export (once) and load a local sentence-transformers model directory."""
        try:
            import onnxruntime  # noqa: F401
        except ImportError:
            raise RunError("the onnx backend needs: pip install 'maieutic[onnx]'") from None
        model_dir = Path(source)
        if not model_dir.is_dir():
            raise RunError(f"the onnx backend needs a local model directory; {source!r} is not one")
        modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
        kinds = {m["type"] for m in modules}
        if not kinds <= _SUPPORTED_MODULES:
            raise RunError(
                f"the onnx backend supports transformer+pooling models only; {source!r} "
                f"also has {sorted(kinds - _SUPPORTED_MODULES)}"
            )
        pooling_dir = next((m["path"] for m in modules if m["type"].endswith("Pooling")), None)
        pooling_cfg = _read_json(model_dir / pooling_dir / "config.json") if pooling_dir else {}
        pooling = "cls" if pooling_cfg.get("pooling_mode_cls_token") else "mean"
        max_length = _read_json(model_dir / "sentence_bert_config.json").get("max_seq_length", 512)
        digest = hashlib.sha256(cache_key.encode()).hexdigest()[:16]
        onnx_path = maieutic_home() / "onnx" / digest / "model.onnx"
        if not onnx_path.exists():
            _export(model_dir, onnx_path=onnx_path)
        return cls(onnx_path, model_dir=model_dir, pooling=pooling, max_length=max_length)

    def encode(self, texts, batch_size: int = 64, **_: object) -> np.ndarray:
        """Encode texts, sorted by length inside so batches carry little padding."""
        order = np.argsort([-len(t) for t in texts], kind="stable")
        out = np.empty((len(texts), 0), dtype=np.float32)
        chunks = []
        for start in range(0, len(texts), batch_size):
            batch = [texts[i] for i in order[start : start + batch_size]]
            enc = self.tokenizer(
                batch,
                padding=True,
                truncation=True,
                max_length=self.max_length,
                return_tensors="np",
            )
            feed = {k: v.astype(np.int64) for k, v in enc.items() if k in self.input_names}
            hidden = self.session.run(None, feed)[0]
            mask = enc["attention_mask"].astype(np.float32)[..., None]
            if self.pooling == "cls":
                pooled = hidden[:, 0]
            else:
                pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
            chunks.append(pooled)
        if chunks:
            out = np.concatenate(chunks).astype(np.float32)
        out /= np.clip(np.linalg.norm(out, axis=1, keepdims=True), 1e-12, None)
        result = np.empty_like(out)
        result[order] = out
        return result


def _export(model_dir: Path, *, onnx_path: Path) -> None:
    """Export the transformer's last hidden state to ONNX with dynamic batch and length."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    # eager attention traces to plain ops; the SDPA path bakes shape checks into the graph
    model = AutoModel.from_pretrained(str(model_dir), attn_implementation="eager").eval()
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    sample = tokenizer(
        ["an example", "a second, longer example"], padding=True, return_tensors="pt"
    )
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in sample]
    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    axes["last_hidden_state"] = {0: "batch", 1: "sequence"}

    class _Wrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = model

        def forward(self, *args):
            return self.inner(**dict(zip(names, args, strict=True))).last_hidden_state

    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = onnx_path.with_suffix(".tmp")
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer advisories, not actionable by users
        torch.onnx.export(
            _Wrapper(),
            tuple(sample[n] for n in names),
            str(tmp),
            input_names=names,
            output_names=["last_hidden_state"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
    tmp.replace(onnx_path)

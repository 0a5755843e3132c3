"""Hugging Face transformers backend (optional extra ``maieutic[hf]``), imported lazily."""

from __future__ import annotations

import asyncio
import functools
import threading
import time

from maieutic.errors import RunError
from maieutic.llm.backends.turns import start_call, timed_out
from maieutic.llm.types import BackendReply, ChatRequest

HF_HINT = "the hf backend needs transformers: pip install 'maieutic[hf]'"
# an unpinned torch from PyPI is the multi-GB CUDA build; point at the CPU wheels first
TORCH_HINT = (
    "the hf backend needs torch: pip install torch --index-url "
    "https://download.pytorch.org/whl/cpu (the CPU build), then pip install 'maieutic[hf]'"
)


def _import_transformers():
    try:
        import torch
    except ImportError:
        raise RunError(TORCH_HINT) from None
    try:
        import transformers
    except ImportError:
        raise RunError(HF_HINT) from None
    return torch, transformers


def _quiet_gguf_conversion() -> None:
    # transformers draws a tqdm bar of its own while it dequantises a GGUF, ignoring its
    # progress-bar setting; turn that one bar off (once) so stderr stays readable
    try:
        import transformers.modeling_gguf_pytorch_utils as gguf_utils
    except ImportError:
        return
    if not getattr(gguf_utils, "_maieutic_quiet", False):
        gguf_utils.tqdm = functools.partial(gguf_utils.tqdm, disable=True)
        gguf_utils._maieutic_quiet = True


class HFBackend:
    """A causal LM with a chat template, run locally with ``transformers``.

    Args:
        model: a model name (needs the network once) or a local directory.
        gguf_file: optionally, a GGUF file inside ``model`` to dequantise and load.
    """

    kind = "hf"
    secrets: tuple[str, ...] = ()
    times_its_calls = True
    """One call at a time: the limit counts from a call's turn (``turns``)."""

    def __init__(self, model: str, gguf_file: str | None = None, *, device: str | None = None):
        _import_transformers()  # fail at construction, with the hint, when missing
        self.model = model
        self.gguf_file = gguf_file
        self.device = device
        self._loaded = None
        self._lock = threading.Lock()

    @property
    def model_identity(self) -> str:
        """Model name (and GGUF file)."""
        return f"hf:{self.model}" + (f"#{self.gguf_file}" if self.gguf_file else "")

    def load(self) -> None:
        """Load the model now rather than on the first call (for timing, or to fail early)."""
        with self._lock:
            self._load()

    def tokenizer_and_model(self):
        """The loaded tokenizer and model (loading them if needed)."""
        with self._lock:
            _, tok, model = self._load()
        return tok, model

    def _load(self):
        if self._loaded is None:
            from maieutic.embed.encoder import _quiet_hf

            _quiet_hf()  # their progress bars would interleave with maieutic's lines
            torch, transformers = _import_transformers()
            if self.gguf_file:
                _quiet_gguf_conversion()
            kwargs = {"gguf_file": self.gguf_file} if self.gguf_file else {}
            try:
                tok = transformers.AutoTokenizer.from_pretrained(self.model, **kwargs)
                model = transformers.AutoModelForCausalLM.from_pretrained(self.model, **kwargs)
            except Exception as exc:  # the library raises many types for "not found"
                raise RunError(
                    f"could not load {self.model!r}: {str(exc).splitlines()[0]}"
                ) from None
            if self.device:
                model = model.to(self.device)
            self._loaded = (torch, tok, model.eval())
        return self._loaded

    def _chat_sync(self, request: ChatRequest, timeout: float) -> BackendReply:
        with self._lock:
            torch, tok, model = self._load()
            limit, deadline = start_call(timeout)  # the call's clock starts with its turn
            params = request.params
            ids = tok.apply_chat_template(
                request.openai_messages(),
                add_generation_prompt=True,
                return_tensors="pt",
                return_dict=True,
            ).to(model.device)
            if params.seed is not None:
                torch.manual_seed(params.seed)
            sample = params.temperature > 0
            with torch.no_grad():
                out = model.generate(
                    **ids,
                    max_new_tokens=params.max_tokens,
                    do_sample=sample,
                    temperature=params.temperature if sample else None,
                    top_p=params.top_p if sample else None,
                    pad_token_id=tok.eos_token_id,
                    # transformers stops generating at the deadline (MaxTimeCriteria)
                    max_time=max(deadline - time.monotonic(), 0.0),
                )
            prompt_len = ids["input_ids"].shape[1]
            new = out[0, prompt_len:]
            if time.monotonic() > deadline:  # stopped there: what it wrote is cut short
                raise timed_out(limit, int(new.shape[0]))
            text = tok.decode(new, skip_special_tokens=True)
        return BackendReply(
            text=text,
            model=self.model,
            prompt_tokens=int(prompt_len),
            completion_tokens=int(new.shape[0]),
        )

    async def chat(self, request: ChatRequest, timeout: float) -> BackendReply:
        """One generation, off the event loop; ``timeout`` counts from when its turn
        comes (``turns``), and a call past it is stopped."""
        return await asyncio.to_thread(self._chat_sync, request, timeout)

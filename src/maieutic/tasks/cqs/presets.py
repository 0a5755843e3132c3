"""Named settings that reproduce a published number.

``paper``: the setting of the benchmark's leaderboard and of its paper's STS figures
— cosine similarity of ``stsb-mpnet-base-v2`` sentence embeddings, threshold 0.65 (the
benchmark README's evaluation command; "Benchmarking Critical Questions Generation",
section 5.1). It is used only when that model is on this machine; otherwise the
refusal says how to get it. Another model is never put in its place: a score made with
another model is another number.
"""

from __future__ import annotations

from dataclasses import dataclass

from maieutic.embed.encoder import LEADERBOARD_MODEL, cached_model_path
from maieutic.errors import DataError
from maieutic.path_text import is_folder


@dataclass(frozen=True, kw_only=True)
class Preset:
    """An evaluator with the options that make a published setting."""

    name: str
    evaluator: str
    options: dict[str, object]
    what: str


PRESETS = {
    "paper": Preset(
        name="paper",
        evaluator="sts",
        options={
            "embedding_model": LEADERBOARD_MODEL,
            "embedding_backend": "torch",
            "threshold": 0.65,
        },
        what="sts with stsb-mpnet-base-v2 at threshold 0.65, as the benchmark's leaderboard",
    )
}


def paper_model_here(model: str = LEADERBOARD_MODEL) -> None:
    """Nothing when ``model`` can be loaded with no network; one line (exit 2) saying
    how to get it otherwise."""
    if is_folder(model) or cached_model_path(model):
        return
    raise DataError(
        f"--preset paper needs the embedding model {model!r} (about 420 MB), which is not "
        "on this machine; download it once with the network: `huggingface-cli download "
        f"sentence-transformers/{model}` (maieutic never puts another model in its place)"
    )


def preset_options(name: str, *, evaluator: str, options: dict, given: set[str]) -> str:
    """Apply preset ``name`` to a command's ``options`` (in place) and return the
    evaluator it names. An option the user gave that the preset sets is a usage error:
    the preset's number would silently become another."""
    preset = PRESETS[name]
    clash = sorted(o for o in given if o in ("evaluator", *preset.options))
    if clash:
        flags = ", ".join("--" + c.replace("_", "-") for c in clash)
        raise DataError(f"--preset {name} sets {flags} itself ({preset.what}); drop {flags}")
    paper_model_here(str(preset.options["embedding_model"]))
    options.update(preset.options)
    return preset.evaluator


def leaderboard_note(signature) -> str | None:
    """One line saying that an STS result was made in another setting than the
    leaderboard's (``paper``), so it cannot be compared with published STS scores; None
    for the leaderboard's own setting and for every other evaluator."""
    if signature.evaluator != "sts":
        return None
    paper = PRESETS["paper"].options
    model = str(signature.model or "").rsplit("/", 1)[-1]
    if model == paper["embedding_model"] and signature.threshold == paper["threshold"]:
        return None
    return (
        f"these STS scores use {model or 'another model'} at threshold "
        f"{signature.threshold:g}; the benchmark's leaderboard and paper use "
        f"{paper['embedding_model']} at {paper['threshold']:g}, so compare them only with "
        "scores of the same signature (--preset paper gives the leaderboard's setting)"
    )

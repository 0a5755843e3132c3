"""An option left unset never overrides a component's default.

A component's defaults live in its registered factory alone. The command line passes
an option only when it has a value: an unset option (None) is not passed at all, and
an option shown with a default must show the factory's own, or the help would promise
one number and the run make another. Once, ``evaluate aura --evaluator aura-cross``
without ``--cross-encoder`` passed None over the factory's cross-encoder, ranked by
cosine with a logit threshold, and scored 0 with exit 0.
"""

from __future__ import annotations

import inspect

import click
import pytest

from maieutic.registry import KINDS, entry, names, tasks
from tests.cli_commands import leaves

_INVERTED = {"no_cache": "cache"}
_VERBS = ("generate", "evaluate", "meta-eval")


def _task_of(path: str) -> str | None:
    parts = path.split()
    if len(parts) < 2:
        return None
    verb, name = parts[0], parts[1]
    task = name.split("-")[0]
    if verb in _VERBS and task in tasks():
        return task
    if verb in tasks():  # maieutic TASK TOOL
        return verb
    return None


def _kinds(path: str) -> tuple[str, ...]:
    """The kinds of component a command builds, by its verb."""
    verb = path.split()[0]
    if verb == "generate":
        return ("generator", "selector", "strategy")
    if verb in ("evaluate", "meta-eval"):
        return ("evaluator", "judge")
    return tuple(k for k in KINDS if k != "task")


def _factory_defaults(task: str, kinds: tuple[str, ...]) -> dict[str, dict[str, object]]:
    """Parameter → {component: its default} over the components of ``task``."""
    out: dict[str, dict[str, object]] = {}
    for kind in kinds:
        for name in names(kind, task=task):
            factory = entry(kind, task=task, name=name).factory
            for param in inspect.signature(factory).parameters.values():
                if param.default is not inspect.Parameter.empty:
                    out.setdefault(param.name, {})[f"{kind} {name}"] = param.default
    return out


def _same(shown: object, default: object) -> bool:
    if isinstance(default, (tuple, list)) or isinstance(shown, (tuple, list)):
        return list(shown or ()) == list(default or ())
    if isinstance(default, float) and isinstance(shown, (int, float)):
        return float(shown) == default
    return shown == default


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """No network and an empty Hugging Face cache: a named model cannot be had."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))


CASES = [(p, c) for p, c in leaves() if _task_of(p)]


@pytest.mark.parametrize(("path", "command"), CASES, ids=[p for p, _ in CASES])
def test_shown_defaults_are_the_factories_own(path, command):
    defaults = _factory_defaults(_task_of(path), _kinds(path))
    ctx = click.Context(command)
    wrong = []
    for param in command.params:
        if not isinstance(param, click.Option) or param.multiple:
            continue
        value = param.get_default(ctx)
        if value is None or type(value).__name__ == "Sentinel":  # click's "no default"
            continue
        name = _INVERTED.get(param.name, param.name)
        shown = (not value) if param.name in _INVERTED else value
        for component, default in defaults.get(name, {}).items():
            # a factory default of None means "decided inside" (e.g. the threshold
            # scale's default): the option must then show none either
            if default is None or not _same(shown, default):
                wrong.append(f"{param.opts[0]} shows {shown!r}, {component} uses {default!r}")
    assert not wrong, f"maieutic {path}: " + "; ".join(wrong)


def test_an_unset_option_leaves_the_factory_default(tmp_path):
    """The run layer: None means not given (the Python API and every command)."""
    from maieutic.run.components import build

    built, _ = build("evaluator", task="aura", name="aura-cross", options={"cross_encoder": None})
    assert built.reranker.cross_encoder_name == "cross-encoder/ms-marco-MiniLM-L-6-v2"
    assert built.reranker.scale == "logit"
    assert built.spec.args["cross_encoder"] == "cross-encoder/ms-marco-MiniLM-L-6-v2"


def test_evaluate_aura_cross_without_the_option_keeps_the_cross_encoder(cli, tmp_path, offline):
    """The defect itself: without --cross-encoder, aura-cross must still rerank with a
    cross-encoder (here it cannot be downloaded, so one line, exit 2), never fall back
    to cosine under a logit threshold."""
    doc = tmp_path / "doc.txt"
    doc.write_text(
        "Solar panels turn sunlight into electricity. They work best in direct sun.\n\n"
        "Batteries store the electricity for the night. Their cost has fallen a lot.\n",
        encoding="utf-8",
    )
    sets = tmp_path / "set.txt"
    sets.write_text("How do solar panels make electricity?\n", encoding="utf-8")
    out = tmp_path / "out.json"
    result = cli(
        "evaluate", "aura", str(doc), str(sets), "--evaluator", "aura-cross",
        "--out", str(out),
    )  # fmt: skip
    assert result.code == 2, result.err
    assert "cannot load the cross-encoder 'cross-encoder/ms-marco-MiniLM-L-6-v2'" in result.err
    assert "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert not out.exists()


def test_a_named_cross_encoder_that_is_not_a_model_is_one_line(cli, tmp_path, offline):
    doc = tmp_path / "doc.txt"
    doc.write_text("Wind turbines make power from moving air in open country.\n", "utf-8")
    sets = tmp_path / "set.txt"
    sets.write_text("How do wind turbines make power?\n", encoding="utf-8")
    empty = tmp_path / "not-a-model"
    empty.mkdir()
    result = cli(
        "evaluate", "aura", str(doc), str(sets), "--evaluator", "aura-cross",
        "--cross-encoder", str(empty),
    )  # fmt: skip
    assert result.code == 2, result.err
    assert f"cannot load the cross-encoder '{empty}'" in result.err
    assert "does not hold a sentence-transformers model" in result.err
    assert "Traceback" not in result.err


def test_an_embedding_model_that_cannot_be_had_is_one_line_exit_2(cli, tmp_path, offline):
    from tests.conftest import write_json

    data = write_json(
        tmp_path / "d.json",
        {"A": {"intervention_id": "A", "intervention": "We should do X because Y.",
               "cqs": [{"id": "r", "cq": "Does Y lead to X?", "label": "Useful"}]}},
    )  # fmt: skip
    submitted = {"A": {"intervention_id": "A", "cqs": [{"id": 0, "cq": "Why X?"}]}}
    sub = write_json(tmp_path / "s.json", submitted)
    result = cli(
        "evaluate", "cqs", "--data", data, sub, "--embedding-model", "no-such-org/no-such-model",
        "--no-cache",
    )  # fmt: skip
    assert result.code == 2, result.err
    assert "cannot load the embedding model 'no-such-org/no-such-model'" in result.err
    assert "huggingface-cli download no-such-org/no-such-model" in result.err


def test_no_factory_takes_none_where_its_default_is_something_else():
    """What lets the registry read None as "not given" everywhere: no factory's
    parameter has a non-None default and also admits None."""
    for task in tasks():
        for kind in KINDS:
            for name in names(kind, task=task):
                for param in inspect.signature(
                    entry(kind, task=task, name=name).factory
                ).parameters.values():
                    if param.default not in (inspect.Parameter.empty, None):
                        assert "None" not in str(param.annotation), (kind, task, name, param.name)


def test_the_registry_reads_none_as_not_given():
    from maieutic.registry import create

    built = create("evaluator", task="aura", name="aura-cross", cross_encoder=None, top_k=None)
    assert built.spec.args["cross_encoder"] == "cross-encoder/ms-marco-MiniLM-L-6-v2"
    assert built.spec.args["top_k"] == 5


def test_client_and_embedding_defaults_live_in_one_place():
    # every registered factory takes the model-client and embedding arguments with the
    # defaults of LLMOptions / EmbeddingOptions; the one factory that waits longer per
    # call says so, and the command line shows its own default (test above)
    import dataclasses
    import inspect

    from maieutic.embed.options import EMBEDDING_DEFAULTS
    from maieutic.llm.options import LLM_DEFAULTS, LLMOptions
    from maieutic.registry import entry, names, tasks

    shared = {
        **{f.name: getattr(LLM_DEFAULTS, f.name) for f in dataclasses.fields(LLM_DEFAULTS)},
        **{
            f.name: getattr(EMBEDDING_DEFAULTS, f.name)
            for f in dataclasses.fields(EMBEDDING_DEFAULTS)
        },
    }
    own = {("generator", "compqa", "llm", "timeout"): 300.0}  # answers run to 768 tokens
    differ, checked = [], 0
    for task in tasks():
        for kind in ("evaluator", "generator"):
            for name in names(kind, task=task):
                parameters = inspect.signature(entry(kind, task=task, name=name).factory).parameters
                for arg, default in shared.items():
                    if arg in parameters:
                        checked += 1
                        found = parameters[arg].default
                        if found != own.get((kind, task, name, arg), default):
                            differ.append(f"{kind} {task}/{name}: {arg}={found!r}")
    assert checked > 40 and not differ, differ
    assert LLMOptions.defaults_of("generator", task="compqa", name="llm").timeout == 300.0


def test_the_embedding_cache_is_on_by_default_and_off_with_no_cache(cli, tmp_path, monkeypatch):
    """``--no-cache`` is the inverse of the factories' ``cache``: the command keeps its
    embeddings under MAIEUTIC_HOME unless told not to (a dropped inversion turned the
    cache off by default and on with the flag, and no other test noticed)."""
    from maieutic.samples import sample_path

    data, submission = (sample_path(f"cqs/sample_{n}.json") for n in ("dataset", "submission"))
    for flags, kept in (([], True), (["--no-cache"], False)):
        home = tmp_path / ("cached" if kept else "uncached")
        monkeypatch.setenv("MAIEUTIC_HOME", str(home))
        result = cli("evaluate", "cqs", "--data", data, submission, *flags)
        assert result.code == 0, result.err
        assert (home / "embeddings.sqlite").exists() == kept, sorted(home.rglob("*"))

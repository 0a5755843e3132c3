"""One name for the embedded model everywhere (``--llm embedded``, or its own name
without ``--base-url``), and ``ask --llm``'s Socratic part when the model gives nothing
to ask from: the offline generator stands in, and every view says so and why."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from maieutic.errors import DataError, RunError
from maieutic.llm.backends import embedded
from maieutic.llm.backends.factory import make_backend
from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.types import PermanentError
from tests.conftest import one_reference, write_json

ARGUMENT = (
    "We should ban cars from the city centre because pollution causes asthma in children. "
    "Experts agree that everyone would be healthier. Look at Oslo: it did exactly that."
)
CQS_REPLY = (
    "1. What evidence shows that pollution from cars causes asthma in children?\n"
    "2. Which experts agree, and what exactly do they agree on?\n"
    "3. Is Oslo like this city in the ways that matter for a ban on cars?"
)
STOOD_IN = "offline claims generator: the model's reply named no weakness type"


@pytest.fixture
def built(monkeypatch):
    """The model each in-process backend was asked for (None: the embedded one), with a
    stand-in that answers nothing."""
    asked: list[str | None] = []

    def fake(model=None, runtime=None):
        asked.append(model)
        return ScriptedBackend(default="")

    monkeypatch.setattr(embedded, "embedded_backend", fake)
    return asked


def _scripted(monkeypatch, focus_reply) -> ScriptedBackend:
    """The embedded model replaced by a script: questions for the critical-question
    prompts, ``focus_reply`` for the weakness-type prompt (it asks for a Classification)."""

    def reply(request):
        prompt = " ".join(content for _, content in request.messages)
        return focus_reply if "Classification" in prompt else CQS_REPLY

    backend = ScriptedBackend(default=reply, model="SmolLM2-135M-Instruct")
    monkeypatch.setattr(embedded, "embedded_backend", lambda model=None, runtime=None: backend)
    return backend


# -- one name for the embedded model ------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["embedded", "Embedded", "SmolLM2-135M-Instruct", "smollm2-135m-instruct"]
)
def test_embedded_and_the_models_own_name_are_the_embedded_model(built, name):
    make_backend("auto", model=name)
    make_backend("local", model=name)
    assert built == [None, None]  # exactly what no --llm at all runs


def test_at_a_server_the_own_name_is_the_served_model_and_embedded_is_refused(built):
    served = make_backend("auto", model="SmolLM2-135M-Instruct", base_url="http://127.0.0.1:9/v1")
    assert type(served).__name__ == "OpenAICompatibleBackend"
    assert served.model_identity.startswith("SmolLM2-135M-Instruct@") and built == []
    with pytest.raises(DataError, match="leave out --base-url") as refused:
        make_backend("auto", model="embedded", base_url="http://127.0.0.1:9/v1")
    assert "\n" not in str(refused.value)
    with pytest.raises(DataError, match="--llm-backend auto or local, not hf"):
        make_backend("hf", model="embedded")


def test_a_bare_name_without_a_server_says_what_llm_takes(built):
    with pytest.raises(DataError) as refused:
        make_backend("auto", model="gpt-4o")
    message = str(refused.value)
    assert "'gpt-4o'" in message and "'embedded'" in message and ".gguf" in message
    assert "\n" not in message and built == []


def test_generate_cqs_takes_llm_embedded(cli, tmp_path, monkeypatch):
    backend = _scripted(monkeypatch, "")
    data, out = one_reference(tmp_path), tmp_path / "sub.json"
    result = cli("generate", "cqs", "--data", data, "--out", out,
                 "--generator", "llm", "--llm", "embedded")  # fmt: skip
    assert result.code == 0, result.err
    assert backend.history, "the embedded model was asked"
    [questions] = json.loads(out.read_text()).values()
    assert [q["cq"] for q in questions["cqs"]] == [q[3:] for q in CQS_REPLY.splitlines()]


def test_generate_cqs_model_first_writes_the_models_usable_questions(cli, tmp_path, monkeypatch):
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    backend = _scripted(monkeypatch, "")
    refs = [{"id": "a", "cq": "Why close it now?", "label": "Useful"}]
    entry = {"intervention_id": "A", "intervention": ARGUMENT, "cqs": refs}
    data, out = write_json(tmp_path / "d.json", {"A": entry}), tmp_path / "sub.json"
    model = [q[3:] for q in CQS_REPLY.splitlines()]
    result = cli("generate", "cqs", "--data", data, "--out", out, "--generator", "model-first",
                 "--llm", "embedded", "--order", "model-first")  # fmt: skip
    assert result.code == 0, result.err
    assert backend.history, "the embedded model was asked"
    assert "3 questions written: 3 from the model, 0 from the offline" in result.err
    [entry] = json.loads(out.read_text()).values()
    # the model's three questions, in its order: all are usable, none is the offline one's
    assert [q["cq"] for q in entry["cqs"]] == model
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["signature_string"].startswith("task:cqs|gen:model-first|model:SmolLM2")
    assert "order:model-first" in meta["signature_string"]
    assert meta["filled"] == {} and meta["rejected"] == {}
    # left to itself, the route does not ask the embedded model (measured worse than the
    # rules): the rules' questions, and why
    asked = len(backend.history)
    auto = cli("generate", "cqs", "--data", data, "--out", out, "--generator", "model-first",
               "--llm", "embedded")  # fmt: skip
    assert auto.code == 0, auto.err
    assert len(backend.history) == asked, "the model was not asked"
    assert "offline: SmolLM2-135M-Instruct writes worse critical questions" in auto.err
    [entry] = json.loads(out.read_text()).values()
    offline = ClaimsCQGenerator().questions_for(ARGUMENT).questions
    assert [q["cq"] for q in entry["cqs"]] == offline
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert "order:offline" in meta["signature_string"]


def test_the_help_of_every_llm_option_names_embedded(cli):
    for command in (["ask"], ["generate", "focus"], ["evaluate", "compqa"], ["serve-llm"]):
        out = cli(*command, "--help").out
        assert "embedded" in out.split("--llm", 1)[1][:300], command


def test_serve_llm_takes_embedded(monkeypatch):
    import os

    from click.testing import CliRunner

    from maieutic.cli.serve_llm import serve_llm
    from maieutic.llm import server
    from maieutic.llm.backends.local import smollm2_gguf_path

    try:
        gguf = smollm2_gguf_path()
    except RunError as exc:
        pytest.skip(str(exc))
    served = []
    monkeypatch.setattr(server, "preflight", served.append)
    monkeypatch.setattr(os, "execv", lambda *a: (_ for _ in ()).throw(SystemExit(0)))
    assert CliRunner().invoke(serve_llm, ["--llm", "embedded"]).exit_code == 0
    assert served == [gguf]
    missing = CliRunner().invoke(serve_llm, ["--llm", "absent.gguf"])
    assert missing.exit_code == 2 and "no such file: absent.gguf" in missing.output


# -- the Socratic part when the model gives nothing -----------------------------------------


def test_a_reply_with_no_type_gets_the_offline_questions_and_says_so(cli, monkeypatch):
    _scripted(monkeypatch, "I think the argument is fine and makes sense overall.")
    result = cli("ask", ARGUMENT, "--llm", "embedded", "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["origins"]["focus"] == STOOD_IN
    # the embedded model writes worse critical questions than the rules: it is not asked
    # for them, and the heading says so
    assert data["origins"]["cqs"] == (
        "offline claims generator: SmolLM2-135M-Instruct writes worse critical questions "
        "than the offline rules (rated Useful 0.01 against the rules' 0.28; "
        "docs/models.md): its questions are not shown"
    )
    assert data["cqs"] and all("written_by" not in q for q in data["cqs"])
    assert data["signatures"]["cqs"].startswith("task:cqs|gen:model-first")
    assert "order:offline" in data["signatures"]["cqs"]
    assert data["signatures"]["focus"].startswith("task:focus|gen:claims")
    assert data["focus"] and data["failures"] == []
    for label in data["focus"]:  # real questions, tied to the text
        assert ARGUMENT[label["start"] : label["end"]] == label["span"] and label["question"]
    terminal = " ".join(cli("ask", ARGUMENT, "--llm", "embedded").out.split())  # unwrapped
    assert f"Socratic questions ({STOOD_IN})" in terminal
    assert "no weakness cue" not in terminal  # the reply is blamed, not the cues
    assert "no types found in the reply" not in terminal  # the heading says it once
    assert "Critical questions (offline claims generator: SmolLM2-135M-Instruct writes" in terminal
    markdown = cli("ask", ARGUMENT, "--llm", "embedded", "--format", "markdown").out
    assert "## Socratic questions (offline claims generator: the model's reply" in markdown


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ('Classification: ["None of the Above"]\nSpan: ["Null"]', "named no weakness (None"),
        ('Classification: ["Vibes"]\nSpan: ["cars"]', "named no known weakness type"),
    ],
)
def test_the_reason_says_what_the_reply_lacked(cli, monkeypatch, reply, reason):
    _scripted(monkeypatch, reply)
    data = json.loads(cli("ask", ARGUMENT, "--llm", "embedded", "--format", "json").out)
    assert data["origins"]["focus"].startswith("offline claims generator: the model's reply")
    assert reason in data["origins"]["focus"] and data["focus"]


def test_a_failed_call_gets_the_offline_questions_and_still_exits_1(cli, monkeypatch):
    _scripted(monkeypatch, PermanentError("the model is gone"))
    result = cli("ask", ARGUMENT, "--llm", "embedded", "--format", "json")
    assert result.code == 1
    data = json.loads(result.out)
    assert data["origins"]["focus"] == "offline claims generator: the model call failed"
    assert data["focus"] and any("the model is gone" in f for f in data["failures"])


def test_a_usable_reply_is_kept(cli, monkeypatch):
    _scripted(monkeypatch, 'Classification: ["Overgeneralization"]\nSpan: ["everyone"]')
    data = json.loads(cli("ask", ARGUMENT, "--llm", "embedded", "--format", "json").out)
    assert data["origins"]["focus"] == "language model SmolLM2-135M-Instruct"
    assert [label["span"] for label in data["focus"]] == ["everyone"]


def test_the_web_page_shows_who_wrote_the_socratic_part():
    from maieutic.web.pages import environment

    page = environment().get_template("ask_result.html")
    result = {
        "text": ARGUMENT, "source": "<text>", "cqs": [], "focus": [], "aura": None,
        "origins": {"cqs": "language model X", "focus": STOOD_IN}, "signatures": {},
        "warnings": [], "failures": [], "seconds": 1.0, "format": "maieutic.ask/1",
    }  # fmt: skip
    html = page.render(result=result, segments=[], cut=0, job=SimpleNamespace(id="j"))
    assert "the model&#39;s reply named no weakness type" in html
    assert "the offline generator found no weakness either" in html
    old = {**result, "origins": None}
    old = page.render(result=old, segments=[], cut=0, job=SimpleNamespace(id="j"))
    assert "no weakness cue found in this text" in old  # a result written before origins
    # model-first: the question the offline generator added says so, the model's do not
    cqs = [{"question": "Model asks?", "written_by": "model"},
           {"question": "Rules ask?", "written_by": "claims", "claim": "a claim"}]  # fmt: skip
    mixed = page.render(
        result={**result, "cqs": cqs}, segments=[], cut=0, job=SimpleNamespace(id="j")
    )
    assert 'Rules ask? <span class="muted">(offline)</span>' in mixed
    assert mixed.count("(offline)") == 1


# -- the real embedded model ----------------------------------------------------------------


@pytest.mark.slow
def test_ask_llm_embedded_runs_the_embedded_model(cli):
    from maieutic.llm.backends.local import smollm2_gguf_path

    try:
        smollm2_gguf_path()
    except RunError as exc:
        pytest.skip(str(exc))
    args = ["ask", ARGUMENT, "--format", "json", "--candidates", "1"]
    result = cli(*args, "--llm", "embedded")
    assert result.code in (0, 1), result.err  # a 135M model may fall short, and says so
    data = json.loads(result.out)
    assert "|model:SmolLM2-135M-Instruct|backend:local/" in data["signatures"]["cqs"]
    assert data["origins"]["cqs"].startswith("offline claims generator: SmolLM2-135M-Instruct")
    assert data["cqs"] and data["focus"]  # the Socratic part is never lost
    focus = data["origins"]["focus"]
    assert focus == "language model SmolLM2-135M-Instruct" or focus.startswith(
        "offline claims generator: the model"
    )
    # the model's own name is the same model: the same replies, served from the cache
    again = cli(*args, "--llm", "SmolLM2-135M-Instruct")
    assert again.code == result.code and json.loads(again.out)["cqs"] == data["cqs"]


def test_no_question_about_the_document_from_the_model_falls_back_to_templates(cli, monkeypatch):
    def reply(request):
        prompt = " ".join(content for _, content in request.messages)
        if "<passage>" in prompt:
            return "I am not sure what to ask about this."  # no question at all
        return "Classification: []" if "Classification" in prompt else CQS_REPLY

    backend = ScriptedBackend(default=reply, model="SmolLM2-135M-Instruct")
    monkeypatch.setattr(embedded, "embedded_backend", lambda model=None, runtime=None: backend)
    result = cli("ask", ARGUMENT, "--llm", "embedded", "--question-set", "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["aura"]["origin"] == "paragraph templates: the model wrote no usable question"
    assert data["aura"]["questions"], data["aura"]
    assert "no question set assessed" not in result.err


def test_a_model_whose_candidates_are_all_ill_formed_lists_none_of_them(cli, monkeypatch):
    # "ban cars?" starts in lower case: the check refuses it, and it is never shown
    def reply(request):
        prompt = " ".join(content for _, content in request.messages)
        return "Classification: []" if "Classification" in prompt else "1. ban cars?"

    # a model not measured weaker than the rules: the model-first route asks it
    backend = ScriptedBackend(default=reply, model="Qwen2.5-7B-Instruct")
    monkeypatch.setattr(embedded, "embedded_backend", lambda model=None, runtime=None: backend)
    from maieutic.tasks.cqs.usefulness import DIRECTORY

    for extra in ([], ["--scorer", str(DIRECTORY)]):
        result = cli("ask", ARGUMENT, "--llm", "embedded", "--format", "json", *extra)
        data = json.loads(result.out)
        questions = [q["question"] for q in data["cqs"]]
        assert questions and "ban cars?" not in " ".join(questions), extra
        assert data["origins"]["cqs"] in (
            "offline claims generator: the model's questions were all ill-formed",
            "offline claims generator: the model wrote no usable question",
        )


def test_an_empty_part_is_not_headed_as_the_models(cli, monkeypatch):
    # a model that writes nothing usable, on a text the rules ask nothing about: the
    # heading says why there is nothing, never that the model wrote it
    passage = (
        "The bridge was opened in 1932 and carries six lanes of traffic across the river. "
        "It was designed by a local engineer, built from steel made in the region, and "
        "painted grey in 1950. A second span was added in 1971 to carry the railway line."
    )

    def reply(request):
        prompt = " ".join(content for _, content in request.messages)
        return "Classification: []" if "Classification" in prompt else "1. Is it sunny out today?"

    backend = ScriptedBackend(default=reply, model="Qwen2.5-7B-Instruct")
    monkeypatch.setattr(embedded, "embedded_backend", lambda model=None, runtime=None: backend)
    data = json.loads(cli("ask", passage, "--llm", "embedded", "--format", "json").out)
    assert data["cqs"] == []
    assert data["origins"]["cqs"] != "language model Qwen2.5-7B-Instruct"
    assert "0 from the model, 0 offline" in data["origins"]["cqs"]

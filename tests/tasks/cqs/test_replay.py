"""Stored candidates, chosen from (``maieutic cqs select``) and served as a model
(``maieutic cqs replay``): the replay answers each request with the stored questions
of the text it is about, through the real HTTP client, so every route that takes
``--base-url`` runs on what a system wrote; its judge requests get people's labels."""

from __future__ import annotations

import json
import socket

import httpx
import pytest

from maieutic.errors import DataError
from maieutic.llm.reply_server import ReplyRefused, ReplyServer
from maieutic.registry import create
from maieutic.tasks.cqs.candidates import load_candidates
from maieutic.tasks.cqs.data import CQDataset, Intervention
from maieutic.tasks.cqs.judges import label_prompt
from maieutic.tasks.cqs.replay import ReplayIndex
from tests.conftest import write_json

BRIDGE = (
    "The city should close the old bridge to cars. It is falling apart, and repairs "
    "would cost more than a new one. I think the council is wrong to wait."
)
TAX = (
    "We must cut the sales tax on food. Families spend a fifth of their income on it, "
    "and the shops in the border towns lose customers to the next state every week."
)
BRIDGE_QS = [
    ("Is the bridge really falling apart, or only old?", "Useful"),
    ("What is a bridge?", "Invalid"),
    ("Would repairs really cost more than a new bridge?", "Useful"),
    ("Who built the bridge and when?", "Unhelpful"),
    ("Why is the council waiting, and what would waiting cost?", "Useful"),
]


def _dataset_layout(tmp_path, *, labels: bool = True):
    def entry(iid, text, qs):
        cqs = [
            {"id": str(n), "cq": q, **({"label": lab} if labels else {})}
            for n, (q, lab) in enumerate(qs)
        ]
        return {"intervention_id": iid, "intervention": text, "cqs": cqs}

    tax = [("Do families really spend a fifth of their income on food?", "Useful")] * 1
    return write_json(
        tmp_path / "candidates.json",
        {"B": entry("B", BRIDGE, BRIDGE_QS), "T": entry("T", TAX, tax)},
    )


def _body(index: ReplayIndex, *messages: str) -> dict:
    return {"model": index.model, "messages": [{"role": "user", "content": m} for m in messages]}


def test_a_request_is_answered_with_the_stored_questions_of_its_text(tmp_path):
    index = ReplayIndex(load_candidates(_dataset_layout(tmp_path)), per_reply=4)
    reply = index.answer(_body(index, f"Write critical questions for:\n<text>\n{BRIDGE}\n</text>"))
    assert reply.splitlines() == [f"{n}. {q}" for n, (q, _) in enumerate(BRIDGE_QS[:4], 1)]
    # the text as a few-shot prompt shows it after another text: its own is the last one
    both = index.answer(_body(index, f"Example:\n{TAX}\nNow this one:\n{' '.join(BRIDGE.split())}"))
    assert both == reply
    assert index.answered == {"B": 2}


def test_a_judge_request_gets_the_stored_label_and_unknown_ones_are_refused(tmp_path):
    index = ReplayIndex(load_candidates(_dataset_layout(tmp_path)))
    judged = label_prompt(BRIDGE, question=BRIDGE_QS[1][0])
    assert index.answer(_body(index, judged)) == "Invalid"
    with pytest.raises(ReplyRefused, match="no stored label"):
        index.answer(_body(index, label_prompt(BRIDGE, question="Is this new?")))
    with pytest.raises(ReplyRefused, match="no stored text occurs"):
        index.answer(_body(index, "Write questions about the weather."))
    with pytest.raises(ReplyRefused, match="as model 'replay-"):
        index.answer({"model": "gpt-4o", "messages": [{"role": "user", "content": BRIDGE}]})


def test_the_model_name_carries_the_candidates_content_hash(tmp_path):
    first = ReplayIndex(load_candidates(_dataset_layout(tmp_path)))
    unlabelled = ReplayIndex(load_candidates(_dataset_layout(tmp_path, labels=False)))
    assert first.model.startswith("replay-") and len(first.model) == len("replay-") + 12
    assert first.model != unlabelled.model  # a cache keyed on the name never mixes them


def test_model_first_runs_on_the_replay_through_the_real_client(tmp_path):
    index = ReplayIndex(load_candidates(_dataset_layout(tmp_path)))
    data = CQDataset(
        interventions={
            "B": Intervention(intervention_id="B", intervention=BRIDGE),
            "T": Intervention(intervention_id="T", intervention=TAX),
        }
    )
    with ReplyServer(index.answer, model=index.model) as server:
        generator = create(
            "generator", task="cqs", name="model-first", llm=index.model, base_url=server.base_url
        )
        run = generator.generate(data, on_progress=lambda *_: None)
        judged = create(
            "generator",
            task="cqs",
            name="model-first",
            llm=index.model,
            base_url=server.base_url,
            selector="llm-judge",
        ).generate(data, on_progress=lambda *_: None)
        assert server.requests == 2 + 5  # two texts, then five judgements (T has one)
    bridge, tax = run.outcomes
    # "What is a bridge?" is usable (about the text): the model's order stands
    assert bridge.questions == [q for q, _ in BRIDGE_QS[:3]] and bridge.filled == []
    assert tax.questions[0] == "Do families really spend a fifth of their income on food?"
    assert len(tax.questions) == 3 and tax.filled == tax.questions[1:]
    assert "1 from the model, 2 offline" in tax.note
    # the judge replayed people's labels: the three Useful questions, in the model's order
    assert judged.outcomes[0].questions == [BRIDGE_QS[i][0] for i in (0, 2, 4)]
    assert judged.stats.requests == 2 + 5


def test_the_replay_server_refuses_what_is_no_chat_request(tmp_path):
    index = ReplayIndex(load_candidates(_dataset_layout(tmp_path)))
    with ReplyServer(index.answer, model=index.model) as server:
        models = httpx.get(f"{server.base_url}/models").json()
        assert models["data"][0]["id"] == index.model
        bad = httpx.post(f"{server.base_url}/chat/completions", content=b"{not json")
        assert bad.status_code == 400
        unknown = httpx.post(
            f"{server.base_url}/chat/completions", json=_body(index, "no stored text here")
        )
        assert unknown.status_code == 404 and "no stored text" in unknown.text


# -- select ------------------------------------------------------------------------------


def test_select_keeps_three_per_text_and_scores_like_any_submission(cli, tmp_path):
    out = tmp_path / "chosen.json"
    result = cli("cqs", "select", _dataset_layout(tmp_path), "--out", out)
    assert result.code == 0, result.err
    written = json.loads(out.read_text())
    assert [q["cq"] for q in written["B"]["cqs"]] == [q for q, _ in BRIDGE_QS[:3]]
    assert [q["cq"] for q in written["T"]["cqs"]] == [TAX_Q]
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["signature_string"].startswith("task:cqs|gen:select|")
    assert "selector:first" in meta["signature_string"] and "candidates:sha256:" in str(meta)
    assert "T: only 1 candidate" in result.err


TAX_Q = "Do families really spend a fifth of their income on food?"


def test_select_model_first_fills_a_short_text_offline(cli, tmp_path):
    out = tmp_path / "chosen.json"
    result = cli("cqs", "select", _dataset_layout(tmp_path), "--model-first", "--out", out)
    assert result.code == 0, result.err
    written = json.loads(out.read_text())
    assert len(written["T"]["cqs"]) == 3 and written["T"]["cqs"][0]["cq"] == TAX_Q
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert len(meta["filled"]["T"]) == 2 and "route:model-first" in meta["signature_string"]
    assert "2 from the offline claims generator" in result.err


def test_a_submission_layout_takes_its_texts_from_data(cli, tmp_path):
    data = write_json(
        tmp_path / "data.json",
        {"B": {"intervention_id": "B", "intervention": BRIDGE, "cqs": []}},
    )
    submission = write_json(
        tmp_path / "sub.json",
        {
            "B": {
                "intervention_id": "B",
                "cqs": [{"id": n, "cq": q} for n, (q, _) in enumerate(BRIDGE_QS)],
            }
        },
    )
    out = tmp_path / "chosen.json"
    alone = cli("cqs", "select", submission, "--out", out)
    assert alone.code == 2 and "name the dataset they were written for with --data" in alone.err
    assert alone.err.count("\n") == 1 and not out.exists()
    result = cli("cqs", "select", submission, "--data", data, "--selector", "random", "--out", out)
    assert result.code == 0, result.err
    chosen = [q["cq"] for q in json.loads(out.read_text())["B"]["cqs"]]
    assert len(chosen) == 3 and set(chosen) <= {q for q, _ in BRIDGE_QS}


def test_candidates_for_texts_the_data_does_not_hold_are_refused(tmp_path):
    data = write_json(
        tmp_path / "data.json", {"X": {"intervention_id": "X", "intervention": TAX, "cqs": []}}
    )
    sub = write_json(tmp_path / "sub.json", {"B": {"intervention_id": "B", "cqs": []}})
    with pytest.raises(DataError, match="1 intervention not in"):
        load_candidates(sub, data=data)
    mixed = write_json(
        tmp_path / "mixed.json",
        {
            "B": {"intervention_id": "B", "intervention": BRIDGE, "cqs": []},
            "T": {"intervention_id": "T", "cqs": []},
        },
    )
    with pytest.raises(DataError, match="no 'intervention' text, where other entries have one"):
        load_candidates(mixed)


def test_llm_options_are_for_the_judge_selector_only(cli, tmp_path):
    result = cli(
        "cqs", "select", _dataset_layout(tmp_path), "--out", tmp_path / "o.json",
        "--llm", "x", "--base-url", "http://127.0.0.1:9/v1",
    )  # fmt: skip
    assert result.code == 2 and "--llm and --base-url are for --selector llm-judge" in result.err


def test_a_model_named_for_the_default_generator_says_which_generators_take_one(cli, tmp_path):
    data = _dataset_layout(tmp_path)
    result = cli("generate", "cqs", "--data", data, "--out", tmp_path / "o.json",
                 "--llm", "x", "--base-url", "http://127.0.0.1:9/v1")  # fmt: skip
    assert result.code == 2 and "--generator model-first" in result.err
    assert "--llm and --base-url name a model" in result.err


# -- edges: a failed call, the offline order, texts with nothing to ask, bad requests ------


def _served(tmp_path):
    index = ReplayIndex(load_candidates(_dataset_layout(tmp_path)))
    return index, ReplyServer(index.answer, model=index.model)


def test_a_failed_model_call_is_missing_cqs_and_the_offline_order_asks_no_model(cli, tmp_path):
    index, server = _served(tmp_path)
    other = "Taxes on fuel should rise, since drivers do not pay for the roads they wear out."
    data = write_json(tmp_path / "d.json", {
        "B": {"intervention_id": "B", "intervention": BRIDGE, "cqs": []},
        "X": {"intervention_id": "X", "intervention": other, "cqs": []},
    })  # fmt: skip
    out = tmp_path / "o.json"
    with server:
        args = ["generate", "cqs", "--data", data, "--out", out, "--generator", "model-first",
                "--llm", index.model, "--base-url", server.base_url, "--retries", "0"]  # fmt: skip
        result = cli(*args)
        # X is no stored text: the replay refuses it, and offline questions never stand in
        assert result.code == 1 and "X: model call failed" in result.err
        written = json.loads(out.read_text())
        assert written["X"]["cqs"] == "Missing CQs" and len(written["B"]["cqs"]) == 3
        asked = server.requests
        offline = cli(*args, "--order", "offline")
        assert offline.code == 0, offline.err
        assert server.requests == asked, "the offline order asks no model"
        assert "offline: the order asked for (--order offline)" in offline.err
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert "order:offline" in meta["signature_string"]


def test_neither_the_model_nor_the_rules_having_a_question_is_no_failure(tmp_path):
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
    from maieutic.tasks.cqs.model_first import choose, outcome_of

    passage = (
        "The bridge was opened in 1932 and carries six lanes of traffic across the river. "
        "It was designed by a local engineer, built from steel made in the region, and "
        "painted grey in 1950. A second span was added in 1971 to carry the railway line."
    )
    item = Intervention(intervention_id="P", intervention=passage)
    choice = choose(item, ["Why?"], claims=ClaimsCQGenerator())
    outcome = outcome_of("P", ["Why?"], choice)
    assert outcome.questions == [] and not outcome.failed
    assert outcome.note.startswith("0 from the model, 0 offline: none of the model's 1 question")
    assert "offline: no question: the text states facts" in outcome.note


def test_duplicate_texts_replay_only_when_their_questions_agree(tmp_path):
    same = {"intervention": BRIDGE, "cqs": [{"id": "0", "cq": BRIDGE_QS[0][0]}]}
    agree = write_json(tmp_path / "a.json", {
        "B1": {"intervention_id": "B1", **same}, "B2": {"intervention_id": "B2", **same},
    })  # fmt: skip
    assert len(ReplayIndex(load_candidates(agree))) == 1
    other = {**same, "cqs": [{"id": "0", "cq": BRIDGE_QS[2][0]}]}
    differ = write_json(tmp_path / "d.json", {
        "B1": {"intervention_id": "B1", **same}, "B2": {"intervention_id": "B2", **other},
    })  # fmt: skip
    with pytest.raises(DataError, match="have the same text but other questions"):
        ReplayIndex(load_candidates(differ))


def test_the_reply_server_answers_a_broken_request_with_an_error_not_a_dropped_line(tmp_path):
    def boom(body):
        raise KeyError("x")

    with ReplyServer(boom, model="m") as server:
        url = f"{server.base_url}/chat/completions"
        odd = httpx.post(url, json={"model": "m", "messages": ["text", {"role": "user"}]})
        assert odd.status_code == 500 and "KeyError" in odd.text
        host, port = server.base_url.split("//")[1].split("/")[0].split(":")
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            raw.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                        b"Content-Length: -5\r\n\r\n")  # fmt: skip
            answer = raw.recv(4096).decode()
        assert answer.startswith("HTTP/1.1 400") and "Content-Length" in answer


def test_selectors_with_few_candidates_ask_no_judge():
    from maieutic.llm.backends.scripted import ScriptedBackend
    from maieutic.llm.client import LLMClient
    from maieutic.llm.store import CallStore
    from maieutic.tasks.cqs.selection import judge_selector, make_selector

    item = Intervention(intervention_id="B", intervention=BRIDGE)
    backend = ScriptedBackend(default="Useful")
    judge = judge_selector(LLMClient(backend, CallStore()))
    two = [BRIDGE_QS[0][0], BRIDGE_QS[2][0]]
    assert judge(item, two, 3) == two and judge(item, [], 3) == [] and backend.history == []
    assert make_selector("random")(item, [], 3) == []
    with pytest.raises(DataError, match="this generator has none"):
        make_selector("llm-judge")

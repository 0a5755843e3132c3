"""Building an evaluator (similarity matcher or LLM judge) from command-line options."""

from __future__ import annotations

import functools

import click

from maieutic.embed.encoder import BACKENDS, DEFAULT_MODEL, Encoder
from maieutic.embed.store import EmbeddingStore
from maieutic.llm.backends.factory import BACKEND_KINDS, make_backend
from maieutic.llm.client import LLMClient, RetryPolicy
from maieutic.llm.store import CallStore
from maieutic.tasks.cqs.judges import LLMJudge
from maieutic.tasks.cqs.matchers import ChrfMatcher, EmbeddingMatcher, Matcher

EVALUATORS = ("sts", "chrf", "llm-match", "llm-label", "llm-rubric")


def evaluator_options(func):
    """The options shared by every command that evaluates critical questions."""
    options = [
        click.option(
            "--threshold",
            type=float,
            default=None,
            help="Similarity a match must exceed (default: 0.6 for sts, 30 for chrf).",
        ),
        click.option(
            "--model",
            default=DEFAULT_MODEL,
            show_default=True,
            help="Embedding model for sts: a sentence-transformers name or local "
            "directory. The leaderboard uses stsb-mpnet-base-v2.",
        ),
        click.option(
            "--backend",
            type=click.Choice(BACKENDS),
            default="torch",
            show_default=True,
            help="Embedding backend (onnx: onnxruntime).",
        ),
        click.option("--batch-size", type=click.IntRange(1, 4096), default=64, show_default=True),
        click.option("--no-cache", is_flag=True, help="Do not use the embedding cache."),
        click.option(
            "--judge-model",
            default=None,
            help="LLM judge model name (at --base-url), GGUF path or HF name.",
        ),
        click.option(
            "--base-url", default=None, help="OpenAI-compatible endpoint of the LLM judge."
        ),
        click.option(
            "--judge-backend",
            type=click.Choice(BACKEND_KINDS),
            default="auto",
            show_default=True,
            help="auto: --base-url given -> server, else embedded.",
        ),
        click.option("--concurrency", type=click.IntRange(1, 512), default=4, show_default=True),
        click.option("--timeout", type=click.FloatRange(0.1), default=120.0, show_default=True),
        click.option("--retries", type=click.IntRange(0, 20), default=4, show_default=True),
    ]
    return functools.reduce(lambda f, option: option(f), reversed(options), func)


def build_matcher(evaluator: str, settings: dict) -> Matcher:
    """The evaluator named ``evaluator`` configured from ``settings`` (option values)."""
    if evaluator == "chrf":
        return ChrfMatcher()
    if evaluator == "sts":
        encoder = Encoder(
            settings["model"], backend=settings["backend"], batch_size=settings["batch_size"]
        )
        return EmbeddingMatcher(encoder, None if settings["no_cache"] else EmbeddingStore())
    backend = make_backend(
        settings["judge_backend"], model=settings["judge_model"], base_url=settings["base_url"]
    )
    client = LLMClient(
        backend,
        CallStore(),
        concurrency=settings["concurrency"],
        timeout_s=settings["timeout"],
        retry=RetryPolicy(retries=settings["retries"]),
    )
    return LLMJudge(evaluator, client)


def fail_on_judge_errors(matcher: Matcher) -> None:
    """Exit 1 (after results were written) when LLM judge calls failed for good."""
    failures = getattr(matcher, "call_failures", [])
    if failures:
        click.echo(
            f"maieutic: error: {len(failures)} judge call(s) failed, those questions are "
            f"scored not_able_to_evaluate; first failure: {failures[0]}",
            err=True,
        )
        raise SystemExit(1)

"""``maieutic serve-llm``: the embedded LLM behind an OpenAI-compatible server."""

from __future__ import annotations

import os
import sys

import click


@click.command("serve-llm")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on (loopback by default).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8080,
    show_default=True,
    help="Port; 0 picks a free one.",
)
@click.option(
    "--llm",
    "model_path",
    type=click.Path(dir_okay=False),
    help="A GGUF file, or embedded (the default: the embedded SmolLM2-135M-Instruct).",
)
def serve_llm(host: str, port: int, model_path: str | None) -> None:
    """Serve the embedded SmolLM2 model (llama-cpp-python's server) until interrupted.

    Point any OpenAI-compatible client at http://HOST:PORT/v1 with model name
    SmolLM2-135M-Instruct.

    \b
    Example:
      maieutic serve-llm --port 8080
    """
    from pathlib import Path

    from maieutic.llm.backends.local import names_embedded, smollm2_gguf_path
    from maieutic.llm.server import SERVED_MODEL_NAME, free_port, preflight, server_command

    if names_embedded(model_path):
        model_path = None  # "embedded", as every --llm takes it
    if model_path and not Path(model_path).is_file():
        raise click.BadParameter(f"no such file: {model_path}", param_hint="'--llm'")
    path = Path(model_path) if model_path else smollm2_gguf_path()
    preflight(path)  # a missing or crashing llama.cpp says so here, not by a silent exit
    port = port or free_port(host)
    click.echo(f"serving {SERVED_MODEL_NAME} at http://{host}:{port}/v1", err=True)
    command = server_command(path, host, port)
    os.execv(sys.executable, command)  # replace this process: signals reach the server

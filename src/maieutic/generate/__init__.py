"""Shared generation machinery: the ``Generator`` protocol, request fan-out through the
LLM client, and parsing of model output."""

from maieutic.generate.fanout import FanOutStats, fan_out
from maieutic.generate.protocol import GenerationRun, Generator

__all__ = ["FanOutStats", "GenerationRun", "Generator", "fan_out"]

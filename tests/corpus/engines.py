"""Engines the corpus tests build from the oracle: a mutant that cannot be given counters."""

from __future__ import annotations

import dataclasses
from typing import Any

from conformance.core.protocol import Capability, EngineInfo


class WithoutCounters:
    """An engine as it is, except that it does not declare the ``counters`` capability.

    The harness then never asks it an outcome question that starts from setup counters
    (``unsupported``), like an engine that can only start games fresh.
    """

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    @property
    def info(self) -> EngineInfo:
        info: EngineInfo = self._engine.info
        return dataclasses.replace(info, capabilities=info.capabilities - {Capability.COUNTERS})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

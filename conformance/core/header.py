"""The first line of a report: what was run, by which engine, started how (a typed :class:`RunHeader`).

A corpus run (:func:`conformance.harness.runner.header`) and a ``verify`` run
(:func:`conformance.verify.run.verify_header`) differ only in what they ran on (``corpus_digest``
and the counts, or ``seed`` and ``examples``); the suite, the protocol, the engine, the filters and
the clock are built here, once. The engine's block records the spec that started it (``spec``), so
that a command suggested from a report (``bisect``, a rerun) names the engine as it was given.
Reports written before the field have no ``spec``: :func:`engine_spec` then reads it back from the
adapter as far as it tells it.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from typing import Any, Final

from conformance import __version__
from conformance.core.protocol import PROTOCOL_MINOR, PROTOCOL_VERSION, EngineInfo
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet

SUITE: Final = "draughts-conformance"


def now() -> str:
    """The time of day in UTC to the second, as reports write it (``started``, ``finished``)."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


@dataclasses.dataclass(frozen=True)
class EngineRecord:
    """The engine of a run as its report records it."""

    name: str
    version: str
    adapter: str
    level: str
    capabilities: tuple[str, ...]
    spec: str | None = None
    """The engine spec the run was given (``oracle``, ``jsonl:CMD``, ``mutant:NAME``...)."""

    @classmethod
    def of(cls, info: EngineInfo, spec: str | None = None) -> EngineRecord:
        return cls(
            info.name,
            info.version,
            info.adapter,
            info.level,
            tuple(sorted(capability.value for capability in info.capabilities)),
            spec,
        )

    def to_json(self) -> dict[str, Any]:
        block: dict[str, Any] = {
            "name": self.name,
            "version": self.version,
            "adapter": self.adapter,
            "level": self.level,
            "capabilities": list(self.capabilities),
        }
        if self.spec is not None:
            block["spec"] = self.spec
        return block


@dataclasses.dataclass(frozen=True)
class RunHeader:
    """A report's header: the engine, the filters that decide its verdict, and ``ran_on`` -- the
    fields of the kind of run (a corpus run's digest and counts, a verify run's seed and size)."""

    engine: EngineRecord
    ran_on: Mapping[str, Any]
    filters: Mapping[str, Any]
    kind: str | None = None
    """``verify`` for a verify run; None for a corpus run (its header has no ``kind``)."""
    started: str = dataclasses.field(default_factory=now)
    rule_set: RuleSet = INTERNATIONAL_SET
    """The game the run played: recorded as ``rules`` (name, full object, digest) unless it is
    international, whose reports stay as they were (no ``rules``: international)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "header",
            **({"kind": self.kind} if self.kind is not None else {}),
            "suite": SUITE,
            "suite_version": __version__,
            "protocol": f"{PROTOCOL_VERSION}.{PROTOCOL_MINOR}",
            **self.ran_on,
            **({} if self.rule_set.is_default else {"rules": self.rule_set.to_json()}),
            "engine": self.engine.to_json(),
            "filters": dict(self.filters),
            "started": self.started,
        }


ADAPTERS_THAT_ARE_SPECS: Final = ("python", "jsonl", "hub", "dxp")
"""Adapters whose name is the spec that started them (``jsonl:CMD`` is both)."""


def engine_spec(header: Mapping[str, Any], *, known: frozenset[str] = frozenset()) -> str:
    """The engine spec that started a report's engine: the header's ``spec``; for a report written
    before it was recorded, the adapter where it is a spec, or the name of an in-process engine
    found in ``known`` (the names a spec can be: ``oracle``, the real engines, ``mutant:NAME``);
    else ``ENGINE``."""
    engine = header.get("engine")
    engine = engine if isinstance(engine, Mapping) else {}
    spec = engine.get("spec")
    if isinstance(spec, str) and spec:
        return spec
    name, adapter = str(engine.get("name", "")), str(engine.get("adapter", ""))
    if adapter.split(":", 1)[0] in ADAPTERS_THAT_ARE_SPECS:
        return adapter
    if adapter == "in-process":
        for candidate in (name, f"mutant:{name}"):
            if candidate in known:
                return candidate
    return "ENGINE"

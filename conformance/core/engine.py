"""Deprecated: the engine author's API is :mod:`conformance.core.protocol`; this old name only
re-exports it, for code that imported it, and goes in a later release (the modules of the suite
import :mod:`conformance.core.protocol`; ``tests/layout/test_deprecated_names.py`` lists those that still do not)."""

from conformance.core.protocol import (
    PROTOCOL_MINOR,
    PROTOCOL_VERSION,
    BaseEngine,
    Capability,
    Engine,
    EngineDeclined,
    EngineError,
    EngineInfo,
    FenAnswer,
    MoveRefused,
    MoveSpec,
    MoveTextAnswer,
    OutcomeAnswer,
    PerftReached,
    PositionRefused,
    Verdict,
)

__all__ = [
    "PROTOCOL_MINOR",
    "PROTOCOL_VERSION",
    "BaseEngine",
    "Capability",
    "Engine",
    "EngineDeclined",
    "EngineError",
    "EngineInfo",
    "FenAnswer",
    "MoveRefused",
    "MoveSpec",
    "MoveTextAnswer",
    "OutcomeAnswer",
    "PerftReached",
    "PositionRefused",
    "Verdict",
]

"""The engine author's API (kept under this name): see :mod:`conformance.core.protocol`."""

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

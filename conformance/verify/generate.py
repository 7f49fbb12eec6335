"""What a ``verify`` run does (:class:`VerifyOptions`) and the positions it draws: position ``i``
of seed ``S`` is the same on every machine (:func:`generate`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from conformance.verify import KINDS
from conformance.verify import strategies as gen
from conformance.verify.smt import DEFAULT_TIMEOUT_MS
from oracle.position import Position

OUTCOME_KINDS: Final = frozenset({"endgames"})
"""The kinds whose positions also get a random game and the outcome question."""


_GENERATORS: Final[Mapping[str, Callable[[gen.Chooser], Position]]] = {
    "random": gen.random_position,
    # One in four is a man capturing onto its far row (4.15), which the others rarely give.
    "captures": lambda chooser: (
        gen.far_row_capture_position(chooser)
        if chooser.integer(0, 3) == 0
        else gen.capture_rich_position(chooser)
    ),
    "chains": lambda chooser: gen.long_chain_position(chooser, 3, 12),
    "endgames": gen.endgame_position,
    "playouts": lambda chooser: gen.playout(chooser, 80),
}


@dataclasses.dataclass(frozen=True)
class VerifyOptions:
    """What a ``verify`` run does. The defaults are the command line's."""

    examples: int = 100
    """How many positions to generate."""
    seed: int = 0
    kinds: tuple[str, ...] = KINDS
    z3: bool = True
    """Check the legal moves with z3 (``legal_moves[z3]``)."""
    z3_examples: int | None = None
    """With z3: only the first this many positions (None: all of them)."""
    differential: bool = True
    """Compare with the oracle (``legal_moves[oracle]``, ``after[oracle]``, ``outcome[oracle]``)."""
    z3_timeout_ms: int = DEFAULT_TIMEOUT_MS
    engine_timeout: float | None = 10.0
    """Seconds per request of an in-process engine (an alarm); None: no limit."""
    plays: int = 2
    """How many of a position's moves are played to check the position after them."""
    outcome_plies: int = 40
    """The longest random game whose outcome is asked (from the endgame positions)."""
    shrink: int = 5
    """How many disagreements are shrunk and described (one per check and finding kind)."""
    max_fail: int | None = None
    """Stop once this many positions failed or errored."""

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.kinds if kind not in KINDS]
        if unknown or not self.kinds:
            raise ValueError(
                f"unknown position kinds {unknown or '(none)'}; expected some of {', '.join(KINDS)}"
            )
        if self.examples < 0 or self.plays < 0 or self.outcome_plies < 0 or self.shrink < 0:
            raise ValueError("examples, plays, outcome_plies and shrink must be 0 or more")
        if self.z3_timeout_ms <= 0:
            raise ValueError(f"z3_timeout_ms must be positive, not {self.z3_timeout_ms}")

    def to_json(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "z3": self.z3,
            "z3_examples": self.z3_examples,
            "differential": self.differential,
            "z3_timeout_ms": self.z3_timeout_ms,
            "engine_timeout": self.engine_timeout,
            "plays": self.plays,
            "outcome_plies": self.outcome_plies,
            "max_fail": self.max_fail,
        }


@dataclasses.dataclass(frozen=True)
class Generated:
    """Position ``index`` of a run: its kind and the position."""

    seed: int
    index: int
    kind: str
    position: Position

    @property
    def case(self) -> str:
        """Its name in reports: ``verify-<seed>-<index>``."""
        return f"verify-{self.seed}-{self.index}"

    def rng(self, purpose: str) -> random.Random:
        """A random source of its own for one later choice (which moves to play, which game)."""
        return random.Random(f"draughts-conformance verify {self.seed} {self.index} {purpose}")


def generate(seed: int, index: int, kinds: Sequence[str] = KINDS) -> Generated:
    """Position ``index`` of the run with ``seed`` over ``kinds``: the same on every machine."""
    kind = kinds[index % len(kinds)]
    chooser = gen.RandomChooser(random.Random(f"draughts-conformance verify {seed} {index} {kind}"))
    return Generated(seed, index, kind, _GENERATORS[kind](chooser))

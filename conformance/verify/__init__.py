"""Formal verification of engines' answers: an SMT encoding of the capture rules, checks, generators.

* :mod:`conformance.verify.jumps` -- the single-jump relation of a position (Art. 4.1, 4.3, 4.11);
* :mod:`conformance.verify.smt` -- the z3 encoding of capture sequences (Art. 4.5-4.15):
  :class:`CaptureSolver`, independent of the oracle's move generator;
* :mod:`conformance.verify.checks` -- checks of an engine's answer returning :class:`Finding`;
* :mod:`conformance.verify.strategies` -- Hypothesis strategies and seeded generators of positions
  (imported on demand: it needs Hypothesis);
* :mod:`conformance.verify.differential` -- comparisons with the oracle (moves, positions, outcomes);
* :mod:`conformance.verify.run` -- the ``verify`` driver: generated positions, checks, shrinking,
  a ready-to-paste case; :mod:`conformance.verify.commands` -- its command line.
"""

from conformance.verify.checks import (
    Finding,
    FindingKind,
    check_captured_squares,
    check_completeness,
    check_optimality,
    check_quiet_moves,
    check_result,
    check_soundness,
    check_symmetry,
    mirror_move,
    mirrored_fen,
    quiet_moves,
    verify_position,
)
from conformance.verify.smt import (
    Capture,
    CaptureSolver,
    SolverUnknownError,
    VerifyError,
    Witness,
    maximal_captures,
)

__all__ = [
    "Capture",
    "CaptureSolver",
    "Finding",
    "FindingKind",
    "SolverUnknownError",
    "VerifyError",
    "Witness",
    "check_captured_squares",
    "check_completeness",
    "check_optimality",
    "check_quiet_moves",
    "check_result",
    "check_soundness",
    "check_symmetry",
    "maximal_captures",
    "mirror_move",
    "mirrored_fen",
    "quiet_moves",
    "verify_position",
]

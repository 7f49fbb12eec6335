"""Differential checks: an engine's answers next to the oracle's, as :class:`Finding` lists.

This is the one part of :mod:`conformance.verify` that judges with the oracle (the SMT side,
:mod:`conformance.verify.smt` and :mod:`conformance.verify.checks`, never does). A difference is
classified under the same :class:`~conformance.verify.findings.FindingKind` the SMT checks use,
so that a report files it under the articles it concerns:

* :func:`compare_legal_moves` -- the legal-move set (Art. 3.4, 3.9, 4.2, 4.13, ...);
* :func:`compare_after` -- the position after one move (Art. 3.5, 4.11, 4.15);
* :func:`compare_outcome` -- the outcome of a game played from a position (Art. 6, 7.2);
* :func:`random_game` -- a seeded random game from a position, played by the oracle: the move
  sequences whose outcome the engine is asked for.

The oracle being a second opinion, not a proof, a disagreement here says "one of the two is
wrong"; the SMT checks say which for the captures, and a case for ``cases/`` must still get its
expectation by hand (rules.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from conformance.verify.answer_reading import read_moves
from conformance.verify.findings import Finding, FindingKind, MoveKey, move_order, move_text, move_texts
from oracle.errors import FenError
from oracle.game import Game
from oracle.moves import Move
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules

DRAW_AND_END_ARTICLES = ("6.1", "6.2", "6.3", "6.4", "7.2")
"""What an outcome question concerns when no particular rule decided it."""

_OUTCOME_RULES = frozenset({*DRAW_AND_END_ARTICLES, "7.2.2", "7.2.3"})


def compare_legal_moves(
    position: Position, answer: Iterable[object], oracle_moves: Iterable[Move], free_choice: bool = False
) -> list[Finding]:
    """How the engine's legal-move set differs from the oracle's, classified by kind.

    Unreadable or repeated moves are not reported here (the invariant checks do); the sets are
    compared by identity (from, to, captured). With captures on the board: a non-capture
    offered is against compulsory capture (4.2); a listed capture the oracle does not know
    takes fewer pieces than the maximum (optimality, 4.13) or is not a capture at all
    (soundness); a capture of the oracle's missing is completeness (4.13, 4.14). Without:
    captures listed are soundness, the steps and slides are compared as quiet moves (3.4, 3.9).
    Under a rule set's free choice of capture (``free_choice``) no capture is wrong for taking
    fewer: one the oracle does not know is soundness, one missing completeness.
    """
    fen = position.fen()
    read, _ = read_moves(answer, fen, position.geometry.square_count)
    given = {item.key for item in read}
    expected = {move.key for move in oracle_moves}
    if given == expected:
        return []
    missing, extra = expected - given, given - expected
    detail: dict[str, Any] = {"fen": fen, "expected": move_texts(expected), "got": move_texts(given)}
    most = max((len(key[2]) for key in expected), default=0)
    findings: list[Finding] = []
    extra_captures = {key for key in extra if key[2]}
    if most > 0:
        quiet = extra - extra_captures
        if quiet or not any(key[2] for key in given):
            what = f"offers {', '.join(move_texts(quiet))}" if quiet else "offers no capture"
            findings.append(
                Finding(
                    FindingKind.COMPULSORY_CAPTURE,
                    f"the oracle finds captures of {most} but the answer {what}",
                    detail | {"non_captures": move_texts(quiet)},
                )
            )
        fewer = set() if free_choice else {key for key in extra_captures if len(key[2]) < most}
        if fewer:
            findings.append(
                Finding(
                    FindingKind.OPTIMALITY,
                    f"{', '.join(move_texts(fewer))} take(s) fewer pieces than the maximum, {most}, the oracle finds",
                    detail | {"maximum": most, "fewer": move_texts(fewer)},
                )
            )
        other = extra_captures - fewer
        if other:
            findings.append(
                Finding(
                    FindingKind.SOUNDNESS,
                    f"the oracle knows no capture {', '.join(move_texts(other))}",
                    detail | {"extra": move_texts(other)},
                )
            )
        if missing:
            findings.append(
                Finding(
                    FindingKind.COMPLETENESS,
                    f"the {'legal' if free_choice else 'maximum'} capture(s) {', '.join(move_texts(missing))} "
                    "of the oracle are missing",
                    detail | {"missing": move_texts(missing)},
                )
            )
        return findings
    if extra_captures:
        findings.append(
            Finding(
                FindingKind.SOUNDNESS,
                f"the oracle finds no capture, the answer lists {', '.join(move_texts(extra_captures))}",
                detail | {"extra": move_texts(extra_captures)},
            )
        )
    quiet_missing, quiet_extra = missing, extra - extra_captures
    if quiet_missing or quiet_extra:
        parts = []
        if quiet_missing:
            parts.append(f"missing {', '.join(move_texts(quiet_missing))}")
        if quiet_extra:
            parts.append(f"not legal {', '.join(move_texts(quiet_extra))}")
        findings.append(
            Finding(
                FindingKind.QUIET_MOVES,
                f"no capture is possible and the moves differ from the oracle's: {'; '.join(parts)}",
                detail | {"missing": move_texts(quiet_missing), "extra": move_texts(quiet_extra)},
            )
        )
    return findings


def compare_after(
    position: Position, move: MoveKey, got_fen: str, oracle_after: Position, rules: Rules = INTERNATIONAL
) -> list[Finding]:
    """The engine's position after ``move`` next to the oracle's (a :attr:`RESULT_POSITION` finding).

    An answer that is not a valid FEN is reported as malformed; :func:`~conformance.verify.after.check_result`
    says more about what is wrong (piece count, promotion).
    """
    detail = {"fen": position.fen(), "move": move_text(move), "fen_after": got_fen}
    try:
        got = Position.from_fen(got_fen, rules)
    except FenError as error:
        return [
            Finding(
                FindingKind.MALFORMED,
                f"the position after {move_text(move)} is not a valid FEN: {error}",
                detail,
            )
        ]
    if got == oracle_after:
        return []
    return [
        Finding(
            FindingKind.RESULT_POSITION,
            f"after {move_text(move)} the engine has {got.fen()}, the oracle {oracle_after.fen()}",
            detail | {"expected": oracle_after.fen()},
        )
    ]


def outcome_json(result: str, rule: str | None, ply: int | None) -> dict[str, Any]:
    return {"result": result, "rule": rule, "ply": ply}


def compare_outcome(
    position: Position, moves: Sequence[str], expected: Mapping[str, Any], got: Mapping[str, Any]
) -> list[Finding]:
    """The engine's outcome of a game (result, rule, ply) next to the oracle's (Art. 6, 7.2)."""
    if dict(expected) == dict(got):
        return []
    differences = [
        f"{key} {got.get(key)!r} instead of {expected.get(key)!r}"
        for key in ("result", "rule", "ply")
        if got.get(key) != expected.get(key)
    ]
    return [
        Finding(
            FindingKind.OUTCOME,
            f"after {len(moves)} plies ({' '.join(moves) or 'no move'}): {'; '.join(differences)}",
            {"fen": position.fen(), "moves": list(moves), "expected": dict(expected), "got": dict(got)},
        )
    ]


def outcome_articles(*outcomes: Mapping[str, Any]) -> tuple[str, ...]:
    """The articles an outcome question concerns: the rules named by the outcomes, or all of 6 and 7.2."""
    rules = sorted({str(o["rule"]) for o in outcomes if str(o.get("rule")) in _OUTCOME_RULES})
    return tuple(rules) or DRAW_AND_END_ARTICLES


def random_game(position: Position, rng: random.Random, max_plies: int, rules: Rules = INTERNATIONAL) -> Game:
    """A game of up to ``max_plies`` random legal moves from ``position``, stopping when it is over.

    Played by the oracle (:class:`oracle.game.Game`, default counters: the setup position is the
    first occurrence, no count running), choosing among its legal moves with ``rng``.
    """
    game = Game(position, rules=rules)
    for _ in range(max_plies):
        if game.is_over:
            break
        moves = sorted(game.legal_moves(), key=lambda move: move_order(move.key))
        game.play(moves[rng.randrange(len(moves))])
    return game

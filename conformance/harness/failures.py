"""Where a run files a wrong answer: what the engine gets wrong, asked of the engine itself.

A judge (:mod:`conformance.harness.judges`) decides that an answer is wrong; this module asks the engine
what else it says about the position -- its legal moves there, its play of each part of the
sequence, its reading of a move text, its perft below each move -- and hands that evidence to
:mod:`conformance.core.filing`, the one filing of ``run``, ``verify`` and ``bisect``: a wrong answer is
filed under the rule the engine's own answers show it breaks, which may be another rule than the
question's (``charged_to``), relying on the rules that filing rests on (``requires``). Nothing here
is ever an expected answer: the extra questions only tell where a wrong answer comes from, and an
engine that breaks while asked them leaves the failure where the judge filed it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from conformance.core.corpus.model import Case
from conformance.core.errors import WrongAnswer
from conformance.core.filing import Filing, file_answer
from conformance.core.filing.draws import replay
from conformance.core.filing.played import file_move, file_played
from conformance.core.filing.registry import rule_name
from conformance.core.move_rules import refused_move_rule
from conformance.core.protocol import Capability, Engine, MoveRefused, MoveSpec, MoveTextAnswer, Verdict
from conformance.harness.game_filing import files
from oracle.errors import FenError
from oracle.moves import Move, capture_routes, legal_moves, play
from oracle.perft import perft
from oracle.position import Position


class Partial(WrongAnswer):
    """The engine answered part of the question correctly and stopped (perft to some depth)."""


class Malformed(WrongAnswer):
    """The engine answered something that is not an answer of the right type."""


class Failed(WrongAnswer):
    """A wrong answer: ``message`` says how, ``got`` is the engine's answer as data.

    ``defect`` names the kind of mistake in a few words (the same words for the same mistake,
    so that reports can group failures by defect); ``charged_to`` is the rule at fault when it
    is not the case's own (a refused legal move, a move listed twice, a capture no path makes:
    :mod:`conformance.core.filing`).
    """

    def __init__(
        self,
        message: str,
        got: Any,
        *,
        defect: str,
        charged_to: str | None = None,
        requires: tuple[str, ...] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.got = got
        self.defect = defect
        self.charged_to = charged_to
        self.requires = requires
        """The rules this failure relies on, when the filing knows them better than the case's
        ``requires`` (the rules of the moves the engine got wrong); None: the case's."""


def filed_failure(case: Case, filing: Filing | None, message: str, got: Any, *, defect: str) -> Failed:
    """A wrong answer of ``case``, filed as :mod:`conformance.core.filing` says: under the case's own rule
    when it is one of the filing's rules (the others then join the case's ``requires``), else
    charged to the filing's rule, relying on the filing's ``requires``."""
    own = case.judged_under
    if filing is None:
        return Failed(message, got, defect=defect)
    if own in filing.rules:
        others = [rule for rule in filing.rules if rule != own and rule not in case.requires]
        return Failed(message, got, defect=defect, requires=(*case.requires, *others))
    return Failed(message, got, defect=defect, charged_to=filing.rule, requires=filing.requires)


def move_keys(moves: Iterable[MoveSpec]) -> list[tuple[int, int, frozenset[int]]]:
    return [(move.from_square, move.to_square, move.captured) for move in moves]


def listed(engine: Engine, position: Position) -> list[tuple[int, int, frozenset[int]]] | None:
    """The engine's legal moves of ``position`` (None when it cannot list them or breaks asking)."""
    if Capability.LEGAL_MOVES not in engine.info.capabilities:
        return None
    try:
        answer = list(engine.legal_moves(position.fen()))
    except Exception:  # the original failure stands, filed without the engine's moves
        return None
    return move_keys(answer) if all(isinstance(move, MoveSpec) for move in answer) else None


def moves_filing(engine: Engine, position: Position | Case) -> Filing | None:
    """When the engine lists legal moves: the rule its legal moves of ``position`` (or a case's)
    break (None when it cannot list them, they are right, or the engine breaks asking)."""
    where = Position.from_fen(position.position) if isinstance(position, Case) else position
    answer = listed(engine, where)
    return file_answer(where, answer) if answer is not None else None


PERFT_PROBES: Final = 300
"""At most this many requests are spent looking for where a wrong perft's tree goes wrong."""


def perft_filing(engine: Engine, case: Case, wrong_depth: int) -> Filing | None:
    """A wrong perft count: the rule the engine's legal moves break where its tree first goes
    wrong, found as perft divide does -- the engine's count below each move against the rules',
    down the first move whose count differs (asked of an engine that lists legal moves, within
    :data:`PERFT_PROBES` requests)."""
    if Capability.LEGAL_MOVES not in engine.info.capabilities or not files(case):
        return None
    position, depth, asked = Position.from_fen(case.position), wrong_depth, 0
    while depth >= 1 and asked < PERFT_PROBES:
        asked += 1
        filing = moves_filing(engine, position)
        if filing is not None or depth == 1:
            return filing
        for move in legal_moves(position):
            child = play(position, move)
            asked += 1
            try:
                count = engine.perft(child.fen(), depth - 1)
            except Exception:  # the original failure stands, filed under the case's rule
                return None
            if count != perft(child, depth - 1):
                position, depth = child, depth - 1
                break
        else:
            return None
    return None


def first_wrong_ply(engine: Engine, case: Case, moves: Sequence[str], answer: str | None) -> Filing | None:
    """The rule of the first move the engine plays to a wrong position: the positions after each
    part of the sequence are asked until one differs from the rules' (the whole sequence's is
    ``answer``, when known); then the rule its legal moves there break, if they are wrong (it played
    what its generator made of the move text), else what is wrong with the position. None when the
    engine cannot be asked (no ``play``) or plays every move right."""
    if Capability.PLAY not in engine.info.capabilities or not files(case):
        return None
    played = list(replay(Position.from_fen(case.position), moves))
    if len(played) != len(moves):
        return None
    for index, (before, move) in enumerate(played):
        if index == len(played) - 1 and answer is not None:
            got = answer
        else:
            try:
                got = engine.play(case.position, list(moves[: index + 1]))
            except Exception:  # the original failure stands, filed under the case's rule
                return None
            if not isinstance(got, str):
                return None
        try:
            if Position.from_fen(got) == play(before, move):
                continue
        except FenError:
            pass
        return moves_filing(engine, before) or file_played(before, move, got)
    return None


_MEANING: Final = frozenset({Verdict.LEGAL, Verdict.ILLEGAL, Verdict.AMBIGUOUS})
"""Verdicts that depend on the position's legal moves (``malformed`` is about the text alone)."""


def moves_behind(
    engine: Engine, case: Case, got: Verdict | None = None, want: Verdict | None = None
) -> Filing | None:
    """A move text read (``got`` for ``want``) or written wrongly because the engine's legal moves
    are wrong: their filing. Moves listed twice alone make no text wrong, except a legal text read
    as ambiguous: the engine counts routes as moves (the reading move-identity, as PDN reads it)."""
    if got is not None and want is not None and not (got in _MEANING and want in _MEANING):
        return None
    if not files(case):
        return None
    filing = moves_filing(engine, case)
    if filing is None or filing.rule != "8":
        return filing
    if (got, want) == (Verdict.AMBIGUOUS, Verdict.LEGAL):
        return Filing("move-identity", (), "reads the text of one move with several routes as ambiguous")
    return None


def text_filing(engine: Engine, position: Position, text: str, move: Move) -> Filing | None:
    """A legal move refused although the engine lists it: when its own reading of the move text
    (``parse_move``) does not give that move, the text is what it gets wrong -- move identity
    (``move-identity``) when it finds the one move ambiguous for having several routes, else PDN."""
    if Capability.PARSE_MOVE not in engine.info.capabilities:
        return None
    try:
        answer = engine.parse_move(position.fen(), text, "pdn")
    except Exception:  # a refusal, or a break: nothing more to tell
        return None
    if not isinstance(answer, MoveTextAnswer) or answer.verdict is Verdict.LEGAL:
        return None
    routes = capture_routes(position).get(move, [])
    if answer.verdict is Verdict.AMBIGUOUS and len(routes) > 1:
        return Filing(
            "move-identity", (), f"reads {text!r}, one move with {len(routes)} routes, as ambiguous"
        )
    return Filing("PDN", (), f"reads the PDN text {text!r} of a legal move as {answer.verdict.value}")


def refused_in_sequence(engine: Engine, case: Case, moves: Sequence[str], refusal: MoveRefused) -> Failed:
    """A legal move of the case's sequence held illegal: a fail of the rule of the first move before
    it that the engine played to a wrong position, if any (its game was not the rules' any more);
    else of the rule the engine's legal moves of that position break, when it lists them and they
    are wrong, or its reading of the move text; else of that move's own rule."""
    index: int | None = None
    if refusal.ply is not None and 1 <= refusal.ply <= len(moves):
        index = refusal.ply - 1
    elif refusal.move is not None:
        index = next((i for i, text in enumerate(moves) if text.strip() == refusal.move.strip()), None)
    got = {"illegal": {"move": refusal.move, "ply": refusal.ply}}
    reason = f": {refusal.reason}" if refusal.reason else ""
    if not files(case):  # another game: the refusal is the case's own rule's failure
        return Failed(
            f"the engine held a move of the sequence illegal ({refusal}){reason}",
            got,
            defect="refuses a legal move",
        )
    found = refused_move_rule(case.position, moves, index) if index is not None else None
    if index is None or found is None:
        return Failed(
            f"the engine held a move of the sequence illegal ({refusal}), but every move of it is legal",
            got,
            defect="refuses a legal move",
        )
    text, rule = found
    said = (
        f" (it named {refusal.move!r})" if refusal.move is not None and refusal.move.strip() != text else ""
    )
    before, move = list(replay(Position.from_fen(case.position), moves[: index + 1]))[-1]
    filing = (
        (first_wrong_ply(engine, case, moves[:index], None) if index else None)  # its game went wrong before
        or moves_filing(engine, before)
        or text_filing(engine, before, text, move)
        or file_move(before, move)
    )
    return Failed(
        f"ply {index + 1}: refused the legal move {text!r}{said}, a {rule.kind} ({rule_name(filing.rule)}){reason}",
        got,
        defect=f"refuses a legal {rule.kind}",
        charged_to=filing.rule,
        requires=filing.requires,
    )

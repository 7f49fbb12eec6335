"""The checks of ``verify``, one function each (:class:`Checks`), and the article each result is
filed under: z3 on the legal moves, invariants of every answer, the oracle side by side."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Final

import z3

from conformance.core.corpus.model import article_sort_key
from conformance.core.filing.outcomes import outcome_filing
from conformance.core.filing.played import file_move
from conformance.core.protocol import Capability, MoveSpec
from conformance.verify.after import check_result, position_after
from conformance.verify.answer_reading import read_moves
from conformance.verify.asking import Asker, EngineFailed, NotApplicable
from conformance.verify.checks import (
    check_captured_squares,
    check_optimality,
    check_soundness,
    check_symmetry,
    mirror_move,
    quiet_moves,
    verify_position,
)
from conformance.verify.differential import (
    compare_after,
    compare_legal_moves,
    compare_outcome,
    outcome_articles,
    outcome_json,
)
from conformance.verify.findings import Finding, FindingKind, MoveKey, move_text
from conformance.verify.generate import VerifyOptions
from conformance.verify.jumps import capture_graphs
from conformance.verify.smt import CaptureSolver
from oracle.errors import GameOverError, MoveError
from oracle.game import Game
from oracle.moves import Move, legal_moves, play
from oracle.notation import pdn_text
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, MidCaptureCrowning, Rules

# The checks' names; each check's record (capability, judge, filing, shrink rank, source) is in
# conformance.verify.registry.
Z3: Final = "legal_moves[z3]"


INVARIANTS: Final = "legal_moves[invariants]"


ORACLE: Final = "legal_moves[oracle]"


SYMMETRY: Final = "symmetry"


AFTER_INVARIANTS: Final = "after[invariants]"


AFTER_ORACLE: Final = "after[oracle]"


OUTCOME: Final = "outcome[oracle]"


DRAWS: Final = "outcome[draws]"
"""The outcomes of a steered draw-rule game (``--kind draws``) around each boundary, vs the oracle's."""


CHOSEN_Z3: Final = "choose_move[z3]"


CHOSEN_ORACLE: Final = "choose_move[oracle]"


AFTER_CHECKS: Final = (AFTER_INVARIANTS, AFTER_ORACLE)
"""The checks of a position after one move: their subject is the move (a ``MoveKey``)."""


OUTCOME_CHECKS: Final = (OUTCOME, DRAWS)
"""The checks of a game's outcome: their subject is the moves played, filed under their judgement's rules."""


_ANSWER_KINDS: Final = frozenset({FindingKind.MALFORMED, FindingKind.DUPLICATE, FindingKind.CAPTURED_SQUARES})
"""Findings about the answer's form: reported by the invariants row, not again by the z3 row."""


def articles_of(kinds: Iterable[FindingKind]) -> tuple[str, ...]:
    return tuple(sorted({a for kind in kinds for a in kind.articles}, key=article_sort_key))


CAPTURE_ARTICLES: Final = articles_of(
    (FindingKind.SOUNDNESS, FindingKind.OPTIMALITY, FindingKind.COMPLETENESS, FindingKind.COMPULSORY_CAPTURE)
)


QUIET_ARTICLES: Final = FindingKind.QUIET_MOVES.articles


AFTER_ARTICLES: Final = articles_of(
    (FindingKind.PIECE_COUNT, FindingKind.PROMOTION_ROW, FindingKind.PROMOTION, FindingKind.RESULT_POSITION)
)


#: When a check concerns several articles, the one its result is filed under: the most specific
#: rule first (move identity, the maximum capture, compulsory capture, dead pieces...).
_FILING_ORDER: Final = (
    "8",
    "4.13",
    "4.2",
    "4.11",
    "4.8",
    "4.15",
    "3.5",
    "4.6",
    "4.3",
    "4.5",
    "4.1",
    "3.4",
    "3.9",
    "7.2.2",
    "7.2.3",
    "6.1",
    "6.2",
    "6.3",
    "6.4",
    "7.2",
    "2",
    "3",
    "4",
)


def filed(articles: Sequence[str]) -> dict[str, Any]:
    """A verify result is filed under one article (the most specific it concerns)."""
    if not articles:
        return {"article": "?"}
    rank = {article: index for index, article in enumerate(_FILING_ORDER)}
    return {"article": min(articles, key=lambda a: rank.get(a, len(rank)))}


def played_move_rule(position: Position, key: MoveKey) -> str | None:
    """The rule of the legal move ``key`` (from, to, captured) in ``position``, if it is one: the
    most specific it relies on (:func:`conformance.core.filing.played.file_move`)."""
    for move in legal_moves(position):
        if move.key == (key[0], key[1], frozenset(key[2])):
            return file_move(position, move).rule
    return None


@dataclasses.dataclass(frozen=True)
class Judgement:
    """What one check says about one answer: its findings (none = pass), expected vs got, articles."""

    findings: tuple[Finding, ...]
    articles: tuple[str, ...]
    expected: Any = None
    got: Any = None
    subject: Any = None
    """What the check was about besides the position: the move played, the move sequence."""
    requires: tuple[str, ...] = ()
    """Rules the failure relies on (an outcome the draw model cannot tell from a reading read the
    other way relies on that reading: blocked where the engine fails the reading directly)."""

    @property
    def kind(self) -> FindingKind | None:
        return self.findings[0].kind if self.findings else None


def _key_texts(keys: Iterable[MoveKey]) -> list[str]:
    return [move_text(key) for key in sorted(keys, key=lambda key: (key[0], key[1], sorted(key[2])))]


def _spec_texts(moves: Iterable[MoveSpec]) -> list[str]:
    return _key_texts((move.from_square, move.to_square, move.captured) for move in moves)


def _can_capture(position: Position, rules: Rules = INTERNATIONAL) -> bool:
    """Whether the side to move can jump at all (the verifier's own jump table, no z3 call)."""
    return bool(capture_graphs(position, rules))


def finding_articles(position: Position, findings: Iterable[Finding]) -> tuple[str, ...]:
    """The articles of ``findings``; wrong moves without a capture narrowed to the pieces whose
    moves differ: a king's (3.9), a man's (3.4) or both."""
    articles: set[str] = set()
    for finding in findings:
        if finding.kind is not FindingKind.QUIET_MOVES:
            articles.update(finding.articles)
            continue
        texts = [*finding.detail.get("missing", ()), *finding.detail.get("extra", ())]
        kings, board = position.kings(position.turn), position.geometry
        starts = {int(text.split("-")[0]) for text in texts if text.split("-")[0].isdigit()}
        narrowed = {
            "3.9" if kings & board.bit[square] else "3.4"
            for square in starts
            if 1 <= square <= board.square_count
        }
        articles.update(narrowed or finding.articles)
    return tuple(sorted(articles, key=article_sort_key))


def legal_move_articles(position: Position, rules: Rules = INTERNATIONAL) -> tuple[str, ...]:
    return CAPTURE_ARTICLES if _can_capture(position, rules) else QUIET_ARTICLES


def z3_facts(solver: CaptureSolver) -> dict[str, Any]:
    """What z3 proves about the legal moves (or, without a capture, the rules' quiet moves)."""
    if not solver.can_capture:
        return {"moves": _key_texts(quiet_moves(solver.position, solver.rules))}
    m, _ = solver.maximum()
    return {"maximum": m, "moves": _key_texts(capture.key for capture in solver.legal_captures())}


@dataclasses.dataclass
class Checks:
    """The checks, each a function of a position (and a subject) asking the engine afresh."""

    asker: Asker
    options: VerifyOptions
    _oracle: dict[Position, list[Move]] = dataclasses.field(default_factory=dict)
    _agreed: list[tuple[str, ...]] = dataclasses.field(default_factory=list)
    """The draw-game prefixes of the current position the engine answered right, in order."""

    def forget(self) -> None:
        """Forget the remembered answers (the engine's and the oracle's), to ask them again."""
        self.asker.forget()
        self._oracle.clear()

    def new_position(self) -> None:
        """A new position comes: forget the answers, and the draw games answered right."""
        self.forget()
        self._agreed.clear()

    @property
    def rules(self) -> Rules:
        """The rule set the run plays: the oracle's and z3's (:attr:`VerifyOptions.rule_set`)."""
        return self.options.rules

    @property
    def free_choice(self) -> bool:
        return self.rules.capture_choice is CaptureChoice.FREE

    def oracle_moves(self, position: Position) -> list[Move]:
        if position not in self._oracle:
            self._oracle[position] = legal_moves(position, self.rules)
        return self._oracle[position]

    def legal_moves_z3(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        judgement = self._legal_moves_z3(position, answer, None)
        if judgement.findings:  # described again with routes that depend on this position alone
            judgement = self._legal_moves_z3(position, answer, z3.Context())
        return judgement

    def _legal_moves_z3(
        self, position: Position, answer: list[MoveSpec], context: z3.Context | None
    ) -> Judgement:
        solver = CaptureSolver(position, self.options.z3_timeout_ms, context, self.rules)
        findings = tuple(
            f for f in verify_position(position, answer, solver=solver) if f.kind not in _ANSWER_KINDS
        )
        articles = CAPTURE_ARTICLES if solver.can_capture else QUIET_ARTICLES
        if not findings:
            return Judgement((), articles)
        return Judgement(
            findings, finding_articles(position, findings), z3_facts(solver), _spec_texts(answer)
        )

    def oracle_proved(self, position: Position) -> bool:
        """Whether z3 proves the oracle's legal moves of ``position`` (sound, maximal, complete);
        :class:`~conformance.verify.capture_formula.VerifyError` when z3 cannot tell."""
        moves = [MoveSpec(m.from_square, m.to_square, m.captured) for m in self.oracle_moves(position)]
        solver = CaptureSolver(position, self.options.z3_timeout_ms, rules=self.rules)
        return not verify_position(position, moves, solver=solver)

    def legal_moves_invariants(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        read, findings = read_moves(answer, position.fen(), position.geometry.square_count)
        for item in read:
            findings += check_captured_squares(position, item.key, item.captured_list)
        if findings:
            return Judgement(
                tuple(findings),
                articles_of(f.kind for f in findings),
                "each move readable and listed once; captured squares distinct, each an opposing piece",
                _spec_texts(answer),
            )
        kinds = [FindingKind.DUPLICATE]
        if any(move.captured for move in answer):
            kinds.append(FindingKind.CAPTURED_SQUARES)
        return Judgement((), articles_of(kinds))

    def legal_moves_oracle(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        expected = self.oracle_moves(position)
        findings = tuple(compare_legal_moves(position, answer, expected, self.free_choice))
        articles = CAPTURE_ARTICLES if any(m.captured for m in expected) else QUIET_ARTICLES
        if not findings:
            return Judgement((), articles)
        return Judgement(
            findings,
            finding_articles(position, findings),
            _key_texts(m.key for m in expected),
            _spec_texts(answer),
        )

    def symmetry(self, position: Position, subject: Any = None) -> Judgement:
        answer = self.asker.legal_moves(position.fen())
        mirrored = self.asker.legal_moves(position.mirror().fen())
        findings = tuple(
            f for f in check_symmetry(position, answer, mirrored) if f.kind is FindingKind.SYMMETRY
        )
        if not findings:
            return Judgement((), FindingKind.SYMMETRY.articles)
        squares = position.geometry.square_count
        flipped = (mirror_move((m.from_square, m.to_square, m.captured), squares) for m in answer)
        return Judgement(
            findings,
            FindingKind.SYMMETRY.articles,
            {"position": position.mirror().fen(), "moves": _key_texts(flipped)},
            {"position": position.mirror().fen(), "moves": _spec_texts(mirrored)},
        )

    def _oracle_move(self, position: Position, key: MoveKey) -> Move:
        for move in self.oracle_moves(position):
            if move.key == key:
                return move
        raise NotApplicable(f"{move_text(key)} is not legal in {position.fen()}")

    def _text(self, position: Position, move: Move) -> str:
        """The move's PDN text; the full route when the engine lists another move with its start and end.

        The oracle's short text is unambiguous among the oracle's moves; an engine with other
        moves could read it as one of those, so it gets the route (always a valid PDN capture).
        """
        text = pdn_text(position, move, self.rules)
        if not move.captured or text.count("x") > 1 or Capability.LEGAL_MOVES not in self.asker.capabilities:
            return text
        try:
            listed = self.asker.legal_moves(position.fen())
        except EngineFailed:
            return text
        if any(
            (m.from_square, m.to_square) == (move.from_square, move.to_square) and m.captured != move.captured
            for m in listed
        ):
            return "x".join(map(str, move.route))
        return text

    def _crowned_on_the_way(self, position: Position, move: Move) -> bool:
        """A man crowned mid-capture that goes on as a king (``crownMidCapture: continues``): its
        route (the oracle's, as its text) lands on its far row before the end."""
        if self.rules.mid_capture_crowning is not MidCaptureCrowning.CONTINUES:
            return False
        board = position.geometry
        far = board.far_row(position.turn is Color.WHITE)
        man = position.men(position.turn) & board.bit[move.from_square]
        return bool(man) and any(board.row_of(square) == far for square in move.route[1:-1])

    def after_invariants(self, position: Position, subject: Any) -> Judgement:
        key: MoveKey = subject
        text = self._text(position, self._oracle_move(position, key))
        got = self.asker.play(position.fen(), [text])
        crowned = self._crowned_on_the_way(position, self._oracle_move(position, key))
        findings = tuple(check_result(position, key, got, crowned))
        if not findings:
            return Judgement((), AFTER_ARTICLES, subject=key)
        expected = {"moves": [text], "position": position_after(position, key, crowned).fen()}
        return Judgement(findings, articles_of(f.kind for f in findings), expected, got, key)

    def after_oracle(self, position: Position, subject: Any) -> Judgement:
        key: MoveKey = subject
        move = self._oracle_move(position, key)
        text = self._text(position, move)
        got = self.asker.play(position.fen(), [text])
        oracle_after = play(position, move, self.rules)
        findings = tuple(compare_after(position, key, got, oracle_after, self.rules))
        if not findings:
            return Judgement((), AFTER_ARTICLES, subject=key)
        expected = {"moves": [text], "position": oracle_after.fen()}
        return Judgement(findings, articles_of(f.kind for f in findings), expected, got, key)

    def outcome(self, position: Position, subject: Any, agreed: Sequence[tuple[str, ...]] = ()) -> Judgement:
        """The outcome of a game; a disagreement is filed under the one rule it concerns, or the
        reading the draw model shows it reads the other way, knowing the ``agreed`` answers before
        it (:mod:`conformance.core.filing.outcomes`)."""
        moves: tuple[str, ...] = subject
        game = Game(position, rules=self.rules)
        try:
            for text in moves:
                game.play(text)
        except (MoveError, GameOverError) as error:
            raise NotApplicable(f"the sequence cannot be played from {position.fen()}: {error}") from None
        result = game.outcome()
        expected = outcome_json(result.result.value, result.rule, result.ply)
        got = self.asker.outcome(position.fen(), moves)
        findings = tuple(compare_outcome(position, moves, expected, got))
        if (
            not self.options.rule_set.is_default
        ):  # another game: under the rule its oracle or the engine names
            named = expected.get("rule") or (got.get("rule") if isinstance(got, dict) else None)
            articles = (str(named),) if named else ()
            if not findings:
                return Judgement((), articles, subject=moves)
            return Judgement(findings, articles, {"moves": list(moves), **expected}, got, moves)
        if not findings:
            return Judgement((), outcome_articles(expected), subject=moves)
        default = filed(outcome_articles(expected, got))["article"]
        filing = outcome_filing(position, moves, expected, got, default, agreed=agreed)
        return Judgement(
            findings, (filing.rule,), {"moves": list(moves), **expected}, got, moves, filing.requires
        )

    def draws(self, position: Position, subject: Any) -> Judgement:
        """One prefix of a steered draw game: the outcome after it, the engine's vs the oracle's,
        a disagreement filed under the one rule it concerns (:mod:`conformance.core.filing.outcomes`),
        knowing the prefixes of the game and its controls the engine answered right before."""
        judgement = self.outcome(position, subject, agreed=tuple(self._agreed))
        if not judgement.findings:
            self._agreed.append(subject)
            return judgement
        expected, got = judgement.expected, judgement.got
        moves: tuple[str, ...] = subject

        def said(outcome: Any) -> str:
            if outcome.get("result") == "ongoing":
                return "ongoing"
            return f"{outcome.get('result')} (Art. {outcome.get('rule')}) at ply {outcome.get('ply')}"

        finding = Finding(
            FindingKind.OUTCOME,
            f"after ply {len(moves)}: the oracle has {said(expected)}, the engine {said(got)}",
            dict(judgement.findings[0].detail),
            judgement.articles,
        )
        return dataclasses.replace(judgement, findings=(finding,))

    def chosen_z3(self, position: Position, subject: Any = None) -> Judgement:
        chosen = self.asker.choose_move(position.fen())
        judgement = self._chosen_z3(position, chosen, None)
        if judgement.findings:  # described again with routes that depend on this position alone
            judgement = self._chosen_z3(position, chosen, z3.Context())
        return judgement

    def _chosen_z3(
        self, position: Position, chosen: MoveSpec | None, context: z3.Context | None
    ) -> Judgement:
        solver = CaptureSolver(position, self.options.z3_timeout_ms, context, self.rules)
        findings = self._chosen_findings(position, chosen, solver)
        articles = CAPTURE_ARTICLES if solver.can_capture else QUIET_ARTICLES
        if not findings:
            return Judgement((), articles)
        return Judgement(
            tuple(findings), articles_of(f.kind for f in findings), z3_facts(solver), str(chosen)
        )

    @staticmethod
    def _chosen_findings(position: Position, chosen: MoveSpec | None, solver: CaptureSolver) -> list[Finding]:
        fen = position.fen()
        quiet = quiet_moves(position, solver.rules)
        if chosen is None:
            if solver.can_capture or quiet:
                kind = FindingKind.COMPULSORY_CAPTURE if solver.can_capture else FindingKind.QUIET_MOVES
                return [
                    Finding(kind, "the engine found no move, but the position has legal moves", {"fen": fen})
                ]
            return []
        key = (chosen.from_square, chosen.to_square, chosen.captured)
        if chosen.captured:
            if solver.rules.capture_choice is CaptureChoice.FREE:  # any complete capture is legal
                return check_soundness(solver, {key})
            return check_soundness(solver, {key}) + check_optimality(solver, {key})
        if solver.can_capture:
            return [
                Finding(
                    FindingKind.COMPULSORY_CAPTURE,
                    f"chose {chosen}, but capturing is compulsory",
                    {"fen": fen},
                )
            ]
        if key not in quiet:
            return [
                Finding(
                    FindingKind.QUIET_MOVES,
                    f"chose {chosen}, which is not a legal step or slide",
                    {"fen": fen},
                )
            ]
        return []

    def chosen_oracle(self, position: Position, subject: Any = None) -> Judgement:
        chosen = self.asker.choose_move(position.fen())
        expected = self.oracle_moves(position)
        articles = CAPTURE_ARTICLES if any(m.captured for m in expected) else QUIET_ARTICLES
        keys = {m.key for m in expected}
        if (chosen is None and not keys) or (
            chosen is not None and (chosen.from_square, chosen.to_square, chosen.captured) in keys
        ):
            return Judgement((), articles)
        answer = [] if chosen is None else [chosen]
        findings = compare_legal_moves(position, answer, expected, self.free_choice)
        relevant = tuple(f for f in findings if f.kind is not FindingKind.COMPLETENESS) or tuple(findings)
        return Judgement(relevant, articles_of(f.kind for f in relevant), _key_texts(keys), str(chosen))

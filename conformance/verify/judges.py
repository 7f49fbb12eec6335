"""The checks of ``verify``, one function each (:class:`Checks`), and the article each result is
filed under: z3 on the legal moves, invariants of every answer, the oracle side by side.

The checks' names, :class:`~conformance.verify.judgement.Judgement` and the filing of a judgement's
articles are in :mod:`conformance.verify.judgement`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import z3

from conformance.core.filing.outcomes import outcome_filing
from conformance.core.game_replay import GameReplay
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
from conformance.verify.judgement import (
    AFTER_ARTICLES,
    ANSWER_KINDS,
    CAPTURE_ARTICLES,
    QUIET_ARTICLES,
    Judgement,
    articles_of,
    filed,
    finding_articles,
    key_texts,
    spec_texts,
    z3_facts,
)
from conformance.verify.smt import CaptureSolver
from oracle.errors import GameOverError, MoveError
from oracle.game import Game
from oracle.moves import Move, legal_moves, play
from oracle.notation import pdn_text
from oracle.outcome import Outcome
from oracle.position import Color, Position
from oracle.rules import CaptureChoice, MidCaptureCrowning, Rules


@dataclasses.dataclass
class Checks:
    """The checks, each a function of a position (and a subject) asking the engine afresh."""

    asker: Asker
    options: VerifyOptions
    _oracle: dict[Position, list[Move]] = dataclasses.field(default_factory=dict)
    _agreed: list[tuple[str, ...]] = dataclasses.field(default_factory=list)
    """The draw-game prefixes of the current position the engine answered right, in order."""
    _replay: GameReplay = dataclasses.field(default_factory=GameReplay)
    """The oracle's last game of the current position, for the outcome of a longer prefix of it."""

    def forget(self) -> None:
        """Forget the remembered answers (the engine's and the oracle's), to ask them again."""
        self.asker.forget()
        self._oracle.clear()
        self._replay.forget()

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
            f for f in verify_position(position, answer, solver=solver) if f.kind not in ANSWER_KINDS
        )
        articles = CAPTURE_ARTICLES if solver.can_capture else QUIET_ARTICLES
        if not findings:
            return Judgement((), articles)
        return Judgement(findings, finding_articles(position, findings), z3_facts(solver), spec_texts(answer))

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
                spec_texts(answer),
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
            key_texts(m.key for m in expected),
            spec_texts(answer),
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
            {"position": position.mirror().fen(), "moves": key_texts(flipped)},
            {"position": position.mirror().fen(), "moves": spec_texts(mirrored)},
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
        result = self.oracle_outcome(position, moves)
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

    def oracle_outcome(self, position: Position, moves: Sequence[str]) -> Outcome:
        """The oracle's outcome of ``moves`` played from ``position``: the game of the last sequence
        asked goes on when ``moves`` extends it (:class:`~conformance.core.game_replay.GameReplay`:
        the same game as a replay from ``position``); :class:`NotApplicable` if they cannot be played."""
        setup = (position, self.rules)
        game = self._replay.take(setup, moves)
        if game is None:
            game = Game(position, rules=self.rules)
        try:
            for text in moves[game.ply :]:
                game.play(text)
        except (MoveError, GameOverError) as error:
            raise NotApplicable(f"the sequence cannot be played from {position.fen()}: {error}") from None
        self._replay.keep(setup, moves, game)
        return game.outcome()

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
        return Judgement(relevant, articles_of(f.kind for f in relevant), key_texts(keys), str(chosen))

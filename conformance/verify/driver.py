"""The checks of one generated position: which are asked, each one's result, and a failing one shrunk.

:class:`Driver` asks the engine, through the harness's :class:`~conformance.core.protocol.Engine`
interface (any adapter), for what its capabilities allow -- the legal moves of the position and of
its colour-flipped twin, the position after a few of those moves, the outcome of a random game from
an endgame, a steered draw game -- and checks each answer three ways:

* **with z3** (``legal_moves[z3]``): :func:`~conformance.verify.checks.verify_position` --
  soundness, optimality (an UNSAT proof), completeness of the captures; the quiet moves when
  nothing can be captured. Independent of the oracle's move generator.
* **invariants** (``legal_moves[invariants]``, ``symmetry``, ``after[invariants]``): every
  move readable and listed once, captured squares distinct and the opponent's; the flipped
  position gets the flipped moves; after a move, pieces = before - captured, no man on its own
  promotion row, promotion exactly when a man ends on the far row. No oracle either.
* **differentially** (``legal_moves[oracle]``, ``after[oracle]``, ``outcome[oracle]``,
  ``draws[oracle]``): the same answers next to the oracle's (:mod:`conformance.verify.differential`).

Each (position, check) is one :class:`Row`: a :class:`~conformance.core.results.Result` of the canonical
report stream (``case`` ``verify-<seed>-<index>``, ``position`` the FEN), filed under the articles
of what was checked -- on a failure, of the findings' kinds; a refused move of an outcome question
under that move's rule. An engine that breaks gives ``error``, one that declines ``skip``; z3
answering ``unknown`` is an ``error``, never a pass.

Where a row is filed is :class:`~conformance.verify.answer_filing.AnswerFiling`'s; a disagreement is
shrunk and described by :func:`conformance.verify.disagreement.shrink_row`.

A driver's checks depend on its position only (answers are remembered per position), so any process
can run a driver on any position (:mod:`conformance.verify.collector` takes the rows back in order).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any, Final

from conformance.core.corpus.model import article_sort_key
from conformance.core.filing.registry import rule_name
from conformance.core.protocol import Capability, Engine
from conformance.core.results import ErrorInfo, Result, Status
from conformance.core.rule_sets import plays
from conformance.verify.answer_filing import AnswerFiling
from conformance.verify.asking import Asker, EngineFailed, NotApplicable
from conformance.verify.capture_formula import SolverUnknownError, VerifyError
from conformance.verify.differential import random_game
from conformance.verify.findings import FindingKind, MoveKey
from conformance.verify.generate import EXHAUSTIVE, OUTCOME_KINDS, Generated, VerifyOptions, unasked_checks
from conformance.verify.judgement import (
    AFTER_INVARIANTS,
    AFTER_ORACLE,
    DRAWS,
    ORACLE,
    OUTCOME,
    Z3,
    Judgement,
    played_move_rule,
)
from conformance.verify.judges import Checks
from conformance.verify.registry import Plan, check_named
from conformance.verify.registry import checks as registered_checks
from conformance.verify.shrink_errors import Fault
from conformance.verify.start import PlacementError, check_start, start_of
from oracle.position import Position

START: Final = "initial_position"
"""The check of the engine's start position (Art. 2.8), asked once per run."""


@dataclasses.dataclass(frozen=True)
class Row:
    """One check of one position: its result, the failing judgement (to shrink), the engine's fault."""

    check: str
    result: Result
    judgement: Judgement | None
    fault: Fault | None = None
    """How the engine failed the check's request (an error to shrink), if it did."""
    subject: Any = None
    """The subject (move played, moves of a game) whose request failed."""


class Driver:
    """Asks and judges the checks of one position at a time with one engine (see the module)."""

    def __init__(self, engine: Engine, options: VerifyOptions) -> None:
        self.options = options
        self.asker = Asker(engine, options.engine_timeout)
        self.checks = Checks(self.asker, options)
        self.capabilities = engine.info.capabilities
        self.rule_set = options.rule_set
        self.filer = AnswerFiling(self.asker, self.checks, self.capabilities, self.rule_set)
        declared = engine.info.rule_sets
        # An engine that does not declare the game is asked nothing of it (protocol 1.2).
        self.unplayed = (
            None
            if plays(declared, self.rule_set)
            else f"the engine does not play {self.rule_set.name} (it declares {', '.join(sorted(declared))})"
        )

    def rows(self, generated: Generated, *, asked: bool = False) -> list[Row]:
        """Every check of one position, in report order (``asked``: the engine's answers to this
        position are remembered already, by the fast path of :mod:`conformance.verify.sweep`)."""
        if not asked:
            self.checks.new_position()
        options = self.options
        unasked = unasked_checks(self.rule_set)
        rows: list[Row] = []
        can = self.capabilities.__contains__
        with_z3 = options.z3 and (options.z3_examples is None or generated.index < options.z3_examples)
        # The lean path of an exhaustive campaign: the z3 row (z3 where a capture exists, the
        # verifier's own steps elsewhere) on every position when proving, else only where the engine
        # and the oracle disagree (below); no symmetry row (the colour-flipped position is in the
        # campaign too, checked on its own).
        lean = generated.kind == EXHAUSTIVE
        if lean:
            with_z3 = with_z3 and options.prove
        plan = Plan(
            with_z3=with_z3,
            differential=options.differential,
            lean=lean,
            # a move-choice engine (Hub, DXP): its chosen move is judged, not a list of moves
            move_choice=not (can(Capability.LEGAL_MOVES) or not can(Capability.CHOOSE_MOVE)),
            outcome=generated.kind in OUTCOME_KINDS
            and bool(options.outcome_plies)
            and OUTCOME not in unasked,
            game=generated.game is not None,
        )
        played: list[MoveKey] | None = None
        for check in registered_checks():
            if not check.runs(plan):
                continue
            subjects: Sequence[Any]
            if check.subjects == "played":
                if played is None:
                    played = self.moves_to_play(generated) if options.plays else []
                subjects = played  # nothing to play (no legal move, or none the engine lists): no row
            elif check.subjects == "sequences":
                subjects = self.sequences(generated)
            elif check.subjects == "game":
                assert generated.game is not None
                subjects = generated.game.questions()
            else:
                subjects = [None]
            if subjects:
                rows.append(self.row(generated, check.name, check.capability, subjects))
        if lean and options.z3 and not with_z3:
            rows = self.proved_where_disagreeing(generated, rows)
        return rows

    def proved_where_disagreeing(self, generated: Generated, rows: list[Row]) -> list[Row]:
        """``rows`` with the oracle row's disagreement, if any, put to z3 (:meth:`proved`)."""
        for at, row in enumerate(rows):
            if row.check == ORACLE and row.judgement is not None:
                return [*self.proved(generated, rows[: at + 1]), *rows[at + 1 :]]
        return rows

    def proved(self, generated: Generated, rows: list[Row]) -> list[Row]:
        """An exhaustive campaign's disagreement put to z3: the engine's answer checked
        (``legal_moves[z3]``, a row of its own, first) and the oracle's, so that the oracle row
        says which side the proof supports. Where z3 proves the engine's answer and refutes the
        oracle's, the disagreement is the oracle's defect: an ``error`` of kind ``oracle``, never a
        failure of the engine."""
        z3_row = self.row(generated, Z3, Capability.LEGAL_MOVES, [None])
        *before, oracle_row = rows
        if z3_row.result.status not in (Status.PASS, Status.FAIL):  # z3 undecided: say so, change nothing
            side = "z3 could not decide which answer is right"
        else:
            engine_right = z3_row.result.status is Status.PASS
            try:
                oracle_right = self.checks.oracle_proved(generated.position)
            except VerifyError as error:
                side = f"z3 could not check the oracle's answer: {error}"
            else:
                side = {
                    (False, True): "z3 proves the oracle's answer and refutes the engine's",
                    (False, False): "z3 refutes both answers: the oracle's is wrong too",
                    (True, False): "",
                    (True, True): "",
                }[(engine_right, oracle_right)]
                if engine_right:
                    why = (
                        "z3 proves the engine's answer and refutes the oracle's: a defect of the suite's oracle"
                        if not oracle_right
                        else "z3 accepts both answers, which differ: a defect of the verifier"
                    )
                    kind = "oracle" if not oracle_right else "verifier"
                    message = f"{ORACLE}: {why}; {oracle_row.result.message}"
                    result = dataclasses.replace(
                        oracle_row.result,
                        status=Status.ERROR,
                        message=message,
                        error=ErrorInfo(kind, message),
                        defect=f"error: {kind}",
                    )
                    return [z3_row, *before, Row(ORACLE, result, None)]
        result = dataclasses.replace(oracle_row.result, message=f"{oracle_row.result.message} ({side})")
        return [z3_row, *before, dataclasses.replace(oracle_row, result=result)]

    def moves_to_play(self, generated: Generated) -> list[MoveKey]:
        """A sample of the oracle's moves (the same whatever the engine), kept if the engine lists them too.

        The oracle only provides the move text (notation), never the judgement of ``after[invariants]``.
        """
        oracle_moves = self.checks.oracle_moves(generated.position)
        moves = sorted((m.key for m in oracle_moves), key=lambda k: (k[0], k[1], sorted(k[2])))
        sample = generated.rng("plays").sample(moves, min(self.options.plays, len(moves)))
        if Capability.LEGAL_MOVES not in self.capabilities:
            return sample
        try:
            listed = {
                (m.from_square, m.to_square, m.captured)
                for m in self.asker.legal_moves(generated.position.fen())
            }
        except EngineFailed:
            return sample
        return [key for key in sample if key in listed]

    def sequences(self, generated: Generated) -> list[tuple[str, ...]]:
        """A random game's moves; when it ends, also the moves but the last (still going on)."""
        game = random_game(
            generated.position, generated.rng("game"), self.options.outcome_plies, self.options.rules
        )
        moves = tuple(game.move_texts())
        return [moves, moves[:-1]] if game.is_over and moves else [moves]

    def row(self, generated: Generated, check: str, capability: Capability, subjects: Sequence[Any]) -> Row:
        """One check's result; a move played (``after``) that passes is filed under that move's rule."""
        row = self._row(generated, check, capability, subjects)
        if not self.rule_set.is_default:  # another game: its own articles (verify/game_filing.py)
            return row
        if check in (AFTER_INVARIANTS, AFTER_ORACLE) and subjects and row.result.status is not Status.FAIL:
            rule = played_move_rule(generated.position, subjects[0])
            if rule is not None:
                row = dataclasses.replace(
                    row, result=dataclasses.replace(row.result, article=rule, requires=())
                )
        return row

    def _row(self, generated: Generated, check: str, capability: Capability, subjects: Sequence[Any]) -> Row:
        position = generated.position
        base: dict[str, Any] = {"case": generated.case, "question": check, "position": position.fen()}
        default = self.default_articles(check, position, generated)
        if capability not in self.capabilities or self.unplayed:
            result = Result(
                **base,
                **self.filer.filed(default),
                status=Status.UNSUPPORTED,
                message=self.unplayed or f"engine lacks {capability.value}",
            )
            return Row(check, result, None)
        function = check_named(check).judge(self.checks)
        started = time.perf_counter()
        judgements: list[Judgement] = []
        subject: Any = None
        try:
            for subject in subjects:
                judgement = function(position, subject)
                judgements.append(judgement)
                if judgement.findings:
                    break
        except EngineFailed as failed:
            refused = (  # another game: no FMJD filing (verify/game_filing.py)
                self.filer.refused_rule(
                    check, position, subject, failed, self.filer.listed, self.asker.engine
                )
                if self.rule_set.is_default
                else None
            )
            result = Result(
                **base,
                **(
                    {"article": refused.rule, "requires": refused.requires}
                    if refused
                    else self.filer.filed(default)
                ),
                status=failed.status,
                message=failed.message
                + (f" (charged to {rule_name(refused.rule)}: {refused.why})" if refused else ""),
                error=failed.error,
                duration_ms=(time.perf_counter() - started) * 1000,
                defect=failed_defect(failed),
            )
            return Row(check, result, None, Fault.of(failed), subject)
        except (VerifyError, NotApplicable) as error:
            kind = "z3-unknown" if isinstance(error, SolverUnknownError) else "verifier"
            message = f"{check}: {error}"
            result = Result(
                **base,
                **self.filer.filed(default),
                status=Status.ERROR,
                message=message,
                error=ErrorInfo(kind, message),
                duration_ms=(time.perf_counter() - started) * 1000,
                defect=f"error: {kind}",
            )
            return Row(check, result, None)
        duration = (time.perf_counter() - started) * 1000
        failing = next((j for j in judgements if j.findings), None)
        if failing is None:
            articles = (
                default  # a steered draw game: the rule it is steered to
                if check == DRAWS
                else judgements[0].articles  # an outcome: the rule that ends the whole game, if any
                if check == OUTCOME and judgements
                else tuple(sorted({a for j in judgements for a in j.articles}, key=article_sort_key))
            ) or default
            return Row(
                check,
                Result(**base, **self.filer.filed(articles), status=Status.PASS, duration_ms=duration),
                None,
            )
        message = "; ".join(str(f) for f in failing.findings[:4])
        if len(failing.findings) > 4:
            message += f"; and {len(failing.findings) - 4} more"
        article, requires = self.filer.filing(check, position, failing)
        result = Result(
            **base,
            article=article,
            requires=requires,
            status=Status.FAIL,
            message=message,
            expected=failing.expected,
            got=failing.got,
            duration_ms=duration,
            defect=failing.findings[0].kind.describe(),
        )
        return Row(check, result, failing)

    def start_row(self, seed: int) -> Row:
        """The engine's start position of a game against Art. 2.8's, or the rule set's (once per
        run, not shrunk)."""
        start_fen, _, _ = start_of(self.options.rules)
        base: dict[str, Any] = {
            "case": f"verify-{seed}-start",
            "question": START,
            "position": start_fen,
            **self.filer.filed(FindingKind.START_POSITION.articles),
        }
        if Capability.INITIAL_POSITION not in self.capabilities or self.unplayed:
            message = self.unplayed or f"engine lacks {Capability.INITIAL_POSITION.value}"
            return Row(START, Result(**base, status=Status.UNSUPPORTED, message=message), None)
        started = time.perf_counter()
        try:
            fen = self.asker.initial_position()
            findings = check_start(fen, self.options.rules)
        except EngineFailed as failed:
            result = Result(
                **base,
                status=failed.status,
                message=failed.message,
                error=failed.error,
                defect=failed_defect(failed),
            )
            return Row(START, result, None, Fault.of(failed))
        except PlacementError as error:
            message = f"initial_position: not a FEN: {error}"
            result = Result(
                **base,
                status=Status.ERROR,
                message=message,
                error=ErrorInfo("protocol", message),
                defect="error: protocol",
            )
            return Row(START, result, None)
        duration = (time.perf_counter() - started) * 1000
        if not findings:
            return Row(START, Result(**base, status=Status.PASS, duration_ms=duration), None)
        result = Result(
            **base,
            status=Status.FAIL,
            message="; ".join(str(finding) for finding in findings),
            expected=start_fen,
            got=fen,
            duration_ms=duration,
            defect=FindingKind.START_POSITION.describe(),
        )
        return Row(START, result, None)

    def default_articles(
        self, check: str, position: Position, generated: Generated | None = None
    ) -> tuple[str, ...]:
        """The rules a result of ``check`` is filed under when its judgement says nothing more (the
        check's record, :mod:`conformance.verify.registry`)."""
        return check_named(check).articles(position, generated)


def failed_defect(failed: EngineFailed) -> str:
    """What went wrong when the engine did not answer, in the words of a corpus run's defects: an
    error by its kind (``error: crash``), a refused legal move or valid position ("": declined)."""
    if failed.status is Status.SKIP:
        return ""
    if failed.error is not None:
        return f"error: {failed.error.kind}"
    return "refuses a legal move" if failed.refused is not None else "refuses a valid position"

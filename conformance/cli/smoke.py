"""``draughts-conformance smoke ENGINE``: is the engine wired up right? A few seconds, in plain words.

    draughts-conformance smoke jsonl:"python engine.py"
    draughts-conformance smoke "hub:scan hub" --engine-cwd ~/scan --trace exchange.txt

Starts the engine, reads its banner and capabilities, then asks one question per declared
capability on a simple position whose answer the reference oracle gives (a smoke test, not a
certificate: ``run`` is the certificate). Each problem comes with what the engine did and what to
change (:mod:`conformance.harness.diagnose`): flush stdout, write logs on stderr, echo the ``seq``, the name
of a field, the shape of a move... ``--trace FILE`` keeps the whole exchange.

Exit status: 0 when every check passed (a declined question is only noted), 1 when the engine did
not start or a check found a problem, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from conformance.cli import config
from conformance.cli.commands import subcommand
from conformance.cli.start import add_rules_option, chosen_rule_set
from conformance.core.arguments import described, seconds
from conformance.core.certificate import ExitStatus
from conformance.core.corpus.model import (
    AfterQuestion,
    Case,
    FenQuestion,
    InitialPositionQuestion,
    LegalMovesQuestion,
    MoveCountQuestion,
    MoveTextQuestion,
    NotationQuestion,
    OutcomeQuestion,
    PerftQuestion,
    Question,
)
from conformance.core.protocol import Capability, Engine, EngineError, MoveSpec, OutcomeAnswer, Verdict
from conformance.core.results import Status
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet, RuleSetError, plays
from conformance.core.safe_text import printable
from conformance.engines.adapters import clock
from conformance.engines.adapters.process import EngineProcess, LineTooLong, ProcessClosed, ProcessTimeout
from conformance.engines.adapters.specs import add_engine_options, engine_factory, engine_options
from conformance.engines.adapters.trace import Trace
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness import diagnose
from conformance.harness.evaluate import ask
from oracle.position import Position

OK, PROBLEMS, USAGE = ExitStatus.OK, ExitStatus.FAILED, ExitStatus.USAGE
START = "W:W31-50:B1-20"
CAPTURE = "W:W28:B33"
"""A white man on 28 takes the black man on 33 backward, 28x39: the one legal move (Art. 4.1,
4.2); after it Black has no piece left and White wins (Art. 7.2)."""
BACKWARD_CAPTURE = "28x39"
LAST_CAPTURE = CAPTURE
SILENCE_SECONDS = 1.0
"""How long the probe of a silent JSON-lines engine waits, before and after closing its stdin."""


@dataclasses.dataclass(frozen=True)
class Check:
    """One step of the smoke test: ``state`` is ``ok``, ``problem`` or ``note``."""

    name: str
    state: str
    summary: str
    hint: str | None = None


@subcommand(
    "smoke",
    order=100,
    help="a few seconds: does the engine start and answer each capability? (plain-words hints)",
    description=described(__doc__),
    starts_engine=True,
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``smoke`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument(
        "engine",
        nargs="?",
        help="engine spec, as for run: jsonl:CMD, hub:CMD, dxp:..., python:MOD:ATTR (default: the "
        "settings file's)",
    )
    parser.add_argument("--timeout", type=seconds, default=5.0, help="seconds per request (default 5)")
    add_rules_option(parser)
    add_engine_options(parser)
    config.bind(parser, config.ENGINE_KEYS)
    parser.set_defaults(handler=run_smoke)


def run_smoke(args: argparse.Namespace) -> int:
    """The ``smoke`` command: the checks, printed, then the exit status."""
    started = time.perf_counter()
    config.settle(args)
    try:
        args.rule_set = chosen_rule_set(args)
    except RuleSetError as error:
        print(f"draughts-conformance smoke: {error}", file=sys.stderr)
        return USAGE
    with contextlib.ExitStack() as stack:
        options = engine_options(args, stack)
        file_trace: Trace | None = options.pop("trace", None)
        trace = _Tee(file_trace)
        checks = smoke(args.engine, timeout=args.timeout, trace=trace, **options)
    print_checks(args.engine, checks, sys.stdout)
    problems = sum(check.state == "problem" for check in checks)
    passed = sum(check.state == "ok" for check in checks)
    notes = sum(check.state == "note" for check in checks)
    unwritten = file_trace.problem() if file_trace is not None else None
    where = (
        ""
        if unwritten
        else f"; the exchange is in {args.trace}"
        if args.trace
        else "; --trace FILE keeps the exchange"
    )
    print(
        f"{passed} ok, {problems} problem{'s' if problems != 1 else ''}, {notes} note{'s' if notes != 1 else ''} "
        f"({time.perf_counter() - started:.1f} s){where}"
    )
    if unwritten:
        print(f"draughts-conformance: {unwritten}", file=sys.stderr)
        return USAGE
    return PROBLEMS if problems else OK


class _Tee(Trace):
    """A trace kept in memory (for the hints) and, with ``--trace``, written to a file too."""

    def __init__(self, file_trace: Trace | None) -> None:
        super().__init__(keep=True)
        self._file = file_trace

    def record(self, engine: str, direction: str, text: str, about: str | None = None) -> None:
        super().record(engine, direction, text, about)
        if self._file is not None:
            self._file.record(engine, direction, text, about)


def print_checks(spec: str, checks: Sequence[Check], out: IO[str]) -> None:
    print(f"smoke test of {printable(spec)}", file=out)
    marks = {"ok": "ok     ", "problem": "PROBLEM", "note": "note   "}
    for check in checks:
        print(f"  {marks[check.state]} {check.name:16} {printable(check.summary)}", file=out)
        if check.hint:
            print(f"  {'':7} {'':16} -> {printable(check.hint)}", file=out)


# -- the checks -------------------------------------------------------------------------------------


def smoke(
    spec: str,
    *,
    timeout: float = 5.0,
    start_timeout: float = 10.0,
    trace: Trace | None = None,
    **options: Any,
) -> list[Check]:
    """Start ``spec``'s engine and ask it one question per declared capability; the checks, in
    order (:class:`SpecError` for a spec or an option that names no engine). ``trace`` must keep
    its records (``Trace(keep=True)``) for the hints that read the exchange; one is made if absent."""
    trace = trace if trace is not None and trace.records is not None else Trace(keep=True)
    factory = engine_factory(spec, timeout=timeout, start_timeout=start_timeout, trace=trace, **options)
    protocol = _protocol(spec)
    try:
        engine = factory()
    except EngineError as error:
        silence = None
        if protocol == "jsonl" and "printed nothing" in error.message:
            silence = probe_silence(spec.partition(":")[2], options.get("cwd"), trace)
        return [
            Check(
                "start",
                "problem",
                f"the engine did not start: {error.message}",
                diagnose.start_hint(protocol, error, silence),
            )
        ]
    checks = [_banner(engine, protocol)]
    played: RuleSet = options.get("rule_set") or INTERNATIONAL_SET
    try:
        if not played.is_default:
            declared = ", ".join(sorted(engine.info.rule_sets))
            if not plays(engine.info.rule_sets, played):
                checks.append(
                    Check(
                        "rule set",
                        "problem",
                        f"the engine does not play {played.name} (it declares {declared})",
                        f"Declare it: 'rule_sets' in 'started' (protocol 1.2), EngineInfo.rule_sets for a "
                        f"Python engine; the run of {played.name} asks it nothing until then.",
                    )
                )
                return checks
            checks.append(Check("rule set", "ok", f"plays {played.name} (it declares {declared})"))
        capabilities = engine.info.capabilities
        names = sorted(c.value for c in capabilities)
        if not any(capability.is_operation for capability in capabilities):
            checks.append(
                Check(
                    "capabilities",
                    "problem",
                    "none declared" if not names else ", ".join(names),
                    "The engine declares no operation: nothing can be asked of it.",
                )
            )
        else:
            checks.append(Check("capabilities", "ok", ", ".join(names)))
        for capability, probe in _probes() if played.is_default else _game_probes(played):
            if capability in capabilities:
                checks.append(_ask(engine, capability, probe(), protocol, trace))
    finally:
        engine.close()
    return checks


def _protocol(spec: str) -> str:
    kind = spec.strip().partition(":")[0]
    if kind in ("jsonl", "hub", "dxp"):
        return kind
    if spec.strip() == "oracle" or kind in ("python", "mutant"):
        return "in-process"
    return "jsonl"  # the built-in engines are JSON-lines servers


def _banner(engine: Engine, protocol: str) -> Check:
    info = engine.info
    details = [f"{info.name} {info.version}", f"{info.level} level", f"adapter {info.adapter}"]
    minor = getattr(engine, "minor", None)
    pipeline = getattr(engine, "declared_pipeline", 1)
    if protocol == "jsonl" and isinstance(minor, int):
        details.insert(1, f"protocol 1.{minor}")
        if pipeline > 1:
            details.append(f"pipeline {pipeline}")
    return Check("start", "ok", ", ".join(details))


class _Only:
    """An engine seen with one capability only: each probe asks exactly the operation it checks."""

    def __init__(self, engine: Engine, capability: Capability) -> None:
        self._engine = engine
        self.info = dataclasses.replace(engine.info, capabilities=frozenset({capability}))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)


def _ask(engine: Engine, capability: Capability, case: Case, protocol: str, trace: Trace) -> Check:
    op = capability.value
    question = case.questions[0]
    seen = len(trace.records or [])
    result = ask(_Only(engine, capability), case, question.kind, question)
    records = (trace.records or [])[seen:]
    where = f"{op} on {case.position}" if op != "initial_position" else op
    if result.status is Status.PASS:
        return Check(op, "ok", where)
    if result.status is Status.FAIL:
        backward = BACKWARD_CAPTURE if case.position == CAPTURE else None
        hint = diagnose.fail_hint(protocol, op, result.message, backward)
        return Check(op, "problem", f"{where}: {result.message}", hint)
    if result.status is Status.SKIP:
        return Check(op, "note", f"{where}: {result.message}", diagnose.decline_hint(op))
    error = result.error
    kind = error.kind if error is not None else "error"
    stderr = error.stderr if error is not None else ""
    return Check(
        op,
        "problem",
        f"{where}: {kind}: {result.message}",
        diagnose.request_hint(protocol, op, kind, result.message, stderr, records),
    )


def _case(op: str, position: str, question: Question) -> Case:
    return Case(
        id=f"smoke-{op}",
        article="smoke",
        description=f"smoke test of {op}",
        source="smoke",
        position=position,
        questions=(question,),
        file="smoke",
        line=0,
        topic="smoke",
    )


def _probes() -> list[tuple[Capability, Callable[[], Case]]]:
    """One simple question per operation, with the oracle's answer as the expectation."""
    oracle = OracleEngine()
    capture = MoveSpec(28, 39, frozenset({33}))  # BACKWARD_CAPTURE
    return [
        (
            Capability.FEN,
            lambda: _case("fen", START, FenQuestion(valid=True, position=oracle.fen(START).position)),
        ),
        (
            Capability.LEGAL_MOVES,
            lambda: _case("legal_moves", CAPTURE, LegalMovesQuestion(frozenset(oracle.legal_moves(CAPTURE)))),
        ),
        (
            Capability.MOVE_COUNT,
            lambda: _case("move_count", START, MoveCountQuestion(oracle.move_count(START))),
        ),
        (
            Capability.PERFT,
            lambda: _case("perft", START, PerftQuestion((oracle.perft(START, 1), oracle.perft(START, 2)))),
        ),
        (
            Capability.PLAY,
            lambda: _case("play", START, AfterQuestion(("32-28",), oracle.play(START, ["32-28"]))),
        ),
        (
            Capability.PARSE_MOVE,
            lambda: _case("parse_move", CAPTURE, MoveTextQuestion("28x39", "pdn", Verdict.LEGAL, capture)),
        ),
        (
            Capability.FORMAT_MOVE,
            lambda: _case(
                "format_move",
                CAPTURE,
                NotationQuestion(
                    capture,
                    (oracle.format_move(CAPTURE, capture, "pdn"),),
                    oracle.format_move(CAPTURE, capture, "hub"),
                ),
            ),
        ),
        (
            Capability.OUTCOME,
            lambda: _case("outcome", LAST_CAPTURE, _outcome(oracle)),
        ),
        (
            Capability.INITIAL_POSITION,
            lambda: _case("initial_position", START, InitialPositionQuestion(oracle.initial_position())),
        ),
        (
            Capability.CHOOSE_MOVE,
            lambda: _case("choose_move", CAPTURE, LegalMovesQuestion(frozenset(oracle.legal_moves(CAPTURE)))),
        ),
    ]


def _game_probes(played: RuleSet) -> list[tuple[Capability, Callable[[], Case]]]:
    """The probes of another game than international: one question per operation on the game's
    start position, with the oracle's answer under the game's rules as the expectation."""
    oracle = OracleEngine(played.rules)
    start = Position.initial(played.rules).fen()
    first = oracle.legal_moves(start)[0]
    text = oracle.format_move(start, first, "pdn")
    after = OutcomeAnswer("ongoing")

    def case(op: str, question: Question) -> Case:
        return dataclasses.replace(_case(op, start, question), rule_set=played)

    moves = frozenset(oracle.legal_moves(start))
    return [
        (Capability.FEN, lambda: case("fen", FenQuestion(valid=True, position=start))),
        (Capability.LEGAL_MOVES, lambda: case("legal_moves", LegalMovesQuestion(moves))),
        (Capability.MOVE_COUNT, lambda: case("move_count", MoveCountQuestion(len(moves)))),
        (
            Capability.PERFT,
            lambda: case("perft", PerftQuestion((oracle.perft(start, 1), oracle.perft(start, 2)))),
        ),
        (Capability.PLAY, lambda: case("play", AfterQuestion((text,), oracle.play(start, [text])))),
        (
            Capability.PARSE_MOVE,
            lambda: case("parse_move", MoveTextQuestion(text, "pdn", Verdict.LEGAL, first)),
        ),
        (Capability.FORMAT_MOVE, lambda: case("format_move", NotationQuestion(first, (text,)))),
        (Capability.OUTCOME, lambda: case("outcome", OutcomeQuestion((text,), after.result, None, None))),
        (Capability.INITIAL_POSITION, lambda: case("initial_position", InitialPositionQuestion(start))),
        (Capability.CHOOSE_MOVE, lambda: case("choose_move", LegalMovesQuestion(moves))),
    ]


def _outcome(oracle: OracleEngine) -> OutcomeQuestion:
    answer = oracle.outcome(LAST_CAPTURE, {}, ["28x39"])
    return OutcomeQuestion(("28x39",), answer.result, answer.rule, answer.ply)


# -- a silent JSON-lines engine --------------------------------------------------------------------


def probe_silence(command: str, cwd: str | Path | None, trace: Trace | None) -> str:
    """Start a JSON-lines engine that printed nothing after ``start`` once more, send it ``start``
    and a request, wait, close its stdin, wait again: ``answers-requests`` (it ignores ``start``),
    ``at-exit`` (it printed only on exit: it does not flush) or ``nothing``
    (:func:`conformance.harness.diagnose.silence_kind`)."""
    try:
        process = EngineProcess(shlex.split(command), cwd=cwd, trace=trace, label="jsonl probe")
    except (OSError, ValueError):
        return "nothing"
    try:
        start = b'{"type":"start","protocol":1,"minor":1,"timeout":5}\n'
        request = b'{"type":"request","seq":1,"op":"initial_position"}\n'
        with contextlib.suppress(ProcessClosed, ProcessTimeout):
            process.write(start + request, clock.now() + SILENCE_SECONDS)
        before = _lines_for(process, SILENCE_SECONDS)
        process.close_input()
        after = _lines_for(process, SILENCE_SECONDS)
    finally:
        process.kill_group()
    return diagnose.silence_kind(before, after)


def _lines_for(process: EngineProcess, seconds: float) -> list[str]:
    deadline = clock.now() + seconds
    lines: list[str] = []
    while True:
        try:
            lines.append(process.read_line(deadline).decode("utf-8", errors="replace"))
        except (ProcessTimeout, ProcessClosed, LineTooLong):
            return lines

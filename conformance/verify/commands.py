"""The ``verify`` subcommand: generated positions through an engine, checked with z3 and the oracle.

    draughts-conformance verify --engine oracle --examples 1000 --seed 7
    draughts-conformance verify --engine jsonl:"node engine.js" -n 500 --seed 1 --report v.jsonl
    draughts-conformance verify --engine mutant:crowned-mid-capture -n 200 --no-oracle
    draughts-conformance verify --kind readings [--steps-only] [--yaml] [NAME ...]

``--kind readings`` is another mode: no engine, no generated positions; it synthesises the games
that tell two readings of Art. 6 apart (:mod:`conformance.verify.readings`).

``register(subparsers)`` adds it to the command line (see ``conformance.cli``). The summary comes
first, in ``--format``; then each disagreement found, shrunk (FEN, board, expected vs got, a case
for ``cases/`` with a TODO expectation), each once (by shrunk position and kind of finding), then
each kind of engine error (a crash, a hang, garbage...) once, shrunk while the engine fails the
same way (:mod:`conformance.verify.shrink_errors`), last, where a log ends. The engine options of
``run`` apply (``--trace FILE``, ``--engine-cwd``...); with ``--workers N`` each worker process
appends to the one trace. The canonical JSON-lines report (``--report``) is the same stream as a corpus
run's, with ``"kind": "verify"`` in its header. Progress: a bar on a terminal; otherwise (CI logs)
a line on stderr every ten seconds, and one when a disagreement is found.

Exit status, from the certificate as for ``run`` (the same verdict in the same words, with
``--require RULE[:SCOPE]``, ``--baseline``, ``--accept-known``, ``--write-baseline``; a baseline
may list at most a quarter of the run's positions unless ``--force-baseline``): 0 when something
was certified and every check of every position passed, 1 on failures or errors, 2 on usage
errors (bad option, unknown engine spec, an engine that does not start, a report file that cannot
be written), 3 when nothing was certified or a requirement is not met.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from conformance import config
from conformance.adapters.specs import (
    DEFAULT_TIMEOUT,
    EngineRecipe,
    SpecError,
    add_engine_options,
    engine_factory,
    engine_options,
)
from conformance.arguments import count, positive, seconds
from conformance.baseline import Baseline, BaselineError
from conformance.engine import Engine, EngineError
from conformance.report import Report, ReportError, ReportWriter
from conformance.report.output import print_report, progress_bar
from conformance.results import Result, Status
from conformance.shards import WHOLE, Shard
from conformance.verdict_options import add_verdict_options, load_baseline, write_baseline
from conformance.verify import KINDS
from oracle.position import Position

if TYPE_CHECKING:  # the driver needs z3 and Hypothesis: it is imported when verify runs
    from conformance.verify.casefile import Disagreement
    from conformance.verify.checks import FindingKind
    from conformance.verify.generate import VerifyOptions
    from conformance.verify.run import VerifyRun
    from conformance.verify.shrink_errors import ShrunkError

OK, FAILED, USAGE = 0, 1, 2
FORMATS = ("terminal", "json", "junit", "markdown", "badge")


def register(subparsers: Any) -> None:
    """Add ``verify`` to the ``draughts-conformance`` subcommands."""
    parser = subparsers.add_parser(
        "verify",
        help="check an engine on generated positions with z3, invariants and the oracle",
        description="Generate positions (seeded, reproducible), ask the engine about each and check every "
        "answer: the captures with z3 (soundness, optimality, completeness), invariants (captured squares, "
        "pieces after a move, promotion, colour-flip symmetry) and against the oracle (legal moves, position "
        "after a move, outcome of endgame sequences). Disagreements are shrunk to a minimal position and "
        "printed with a case for cases/. With --kind readings, another mode: no engine and no positions; "
        "for each switch and reading of Art. 6 (or each NAME), the shortest game on which the project's "
        "reading and the other one end differently, replayed with the oracle under both.",
    )
    parser.add_argument(
        "--engine",
        help="engine spec, as for run: oracle, python:MOD:ATTR, jsonl:CMD... (default: the settings "
        "file's; required, except with --kind readings)",
    )
    parser.add_argument(
        "-n", "--examples", type=positive, default=100, help="positions to generate (default 100)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="random seed: the same seed gives the same positions"
    )
    parser.add_argument(
        "--kind",
        choices=(*KINDS, "all", READINGS_KIND),
        default="all",
        help="which positions to generate (default all, in turn); 'readings' is another mode: games "
        "telling readings of Art. 6 apart, no engine (see the readings options)",
    )
    parser.add_argument("--report", type=Path, help="write the canonical JSON-lines report here")
    parser.add_argument("--no-z3", action="store_true", help="skip the z3 check of the legal moves")
    parser.add_argument(
        "--z3-examples", type=count, help="check only the first this many positions with z3 (default all)"
    )
    parser.add_argument(
        "--no-oracle", action="store_true", help="skip the differential checks (z3 and invariants only)"
    )
    parser.add_argument(
        "--timeout", type=seconds, default=DEFAULT_TIMEOUT, help="seconds per engine request (default 10)"
    )
    parser.add_argument("--z3-timeout", type=seconds, default=10.0, help="seconds per z3 call (default 10)")
    parser.add_argument(
        "--plays", type=count, help="moves played per position (default 2; 0 with --exhaustive)"
    )
    parser.add_argument(
        "--plies", type=count, default=40, help="longest random game from an endgame position (default 40)"
    )
    parser.add_argument(
        "--shrink",
        type=count,
        default=5,
        help="disagreements to shrink and print, and as many engine errors (default 5; 0: none)",
    )
    parser.add_argument("--max-fail", type=positive, help="stop after this many failing positions")
    add_verdict_options(parser, questions="positions")
    parser.add_argument(
        "--format", choices=FORMATS, default="terminal", help="summary format (default terminal)"
    )
    parser.add_argument("-o", "--output", type=Path, help="write the summary to this file instead")
    parser.add_argument(
        "--show",
        type=count,
        metavar="N",
        help="unshrunk failures shown in full in the summary (default: none when disagreements or errors were "
        "shrunk, which are printed after it; else 10)",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar (nor progress lines in a log)"
    )
    add_engine_options(parser)  # --trace FILE, --engine-cwd DIR...: as for run, smoke and bisect
    scale = parser.add_argument_group("scale (docs/scale.md)")
    scale.add_argument(
        "--workers", type=positive, default=1, help="worker processes, each with its own engine (default 1)"
    )
    scale.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT|local",
        help="run on a Dask cluster (or 'local': a LocalCluster of --workers processes); "
        "needs pip install 'draughts-conformance[distributed]'. --trace FILE and --engine-cwd DIR are then "
        "paths on each worker's machine: each worker process appends its engine's lines to FILE there",
    )
    scale.add_argument(
        "--shard",
        type=_shard,
        metavar="K/N",
        help="check only shard K of N (positions with index mod N = K-1)",
    )
    scale.add_argument(
        "--exhaustive",
        action="store_true",
        help="every position with at most --pieces pieces (both sides, each to move) instead of -n drawn ones",
    )
    scale.add_argument("--pieces", type=positive, help="with --exhaustive: the most pieces (2 to 40)")
    scale.add_argument(
        "--prove",
        action="store_true",
        help="with --exhaustive: z3 on every position with a capture and the verifier's own steps on the "
        "others (by default z3 checks only where the engine and the oracle disagree); with --engine oracle, "
        "a proof of the oracle, recorded with its code digest (--proof-record)",
    )
    scale.add_argument(
        "--proof-record",
        type=Path,
        metavar="FILE",
        help="with --prove of the oracle: where to write the proof's record (default: the suite's own, "
        "conformance/proofs/oracle-K.json, which later campaigns cite)",
    )
    scale.add_argument(
        "--all-results",
        action="store_true",
        help="a report line for every result; by default passes are counted, one tally line per span of "
        "positions, and only failures, errors and skips have lines of their own",
    )
    scale.add_argument(
        "--tally-every",
        type=positive,
        metavar="N",
        help="positions (indices of the whole run) per tally line; default 100,000 exhaustive, 1,000 drawn, "
        "times N for a shard K/N (so each line counts that many of the shard's positions): also how much a "
        "resumed campaign checks again. Give a one-shot run and merged shards the same N to compare them line "
        "for line",
    )
    scale.add_argument(
        "--resume",
        type=Path,
        metavar="REPORT",
        help="go on with the interrupted run whose report this is (the same command otherwise), from its "
        "last tally line: no position checked twice, none skipped",
    )
    readings = parser.add_argument_group(
        "readings (--kind readings: no engine, no positions; only --seed of the options above applies)"
    )
    readings.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="with --kind readings: the readings to tell apart (default all; "
        "python -m conformance.verify.draw_model list names them)",
    )
    readings.add_argument(
        "--steps-only",
        action="store_true",
        help="games of one-square king steps and man moves only (engines without flying kings play them)",
    )
    readings.add_argument("--yaml", action="store_true", help="print a proposed corpus case after each game")
    readings.add_argument(
        "--write-cases", type=Path, metavar="DIR", help="write a proposed case file per reading into DIR"
    )
    config.bind(parser, (*config.ENGINE_KEYS, *config.VERDICT_KEYS, "workers", "shard"))
    parser.set_defaults(
        handler=run_verify,
        verify_defaults={dest: parser.get_default(dest) for dest in _POSITION_OPTIONS},
    )


READINGS_KIND = "readings"
"""The ``--kind`` that synthesises games telling readings apart instead of checking an engine."""

_POSITION_OPTIONS = {
    "engine": "--engine",
    "examples": "--examples",
    "report": "--report",
    "no_z3": "--no-z3",
    "z3_examples": "--z3-examples",
    "no_oracle": "--no-oracle",
    "timeout": "--timeout",
    "z3_timeout": "--z3-timeout",
    "plays": "--plays",
    "plies": "--plies",
    "shrink": "--shrink",
    "max_fail": "--max-fail",
    "format": "--format",
    "output": "--output",
    "show": "--show",
    "workers": "--workers",
    "scheduler": "--scheduler",
    "shard": "--shard",
    "exhaustive": "--exhaustive",
    "pieces": "--pieces",
    "prove": "--prove",
    "proof_record": "--proof-record",
    "all_results": "--all-results",
    "tally_every": "--tally-every",
    "resume": "--resume",
    "require": "--require",
    "baseline": "--baseline",
    "accept_known": "--accept-known",
    "force_baseline": "--force-baseline",
    "write_baseline": "--write-baseline",
}
"""The options of an engine check on generated positions (destination: flag): meaningless with
``--kind readings``."""

_READINGS_OPTIONS = {
    "names": "NAME",
    "steps_only": "--steps-only",
    "yaml": "--yaml",
    "write_cases": "--write-cases",
}
"""The options of ``--kind readings`` (destination: flag): meaningless with the other kinds."""


def run_readings_kind(args: argparse.Namespace) -> int:
    """``verify --kind readings``: refuse the options of an engine check, then synthesise."""
    from conformance.verify.readings import ReadingsOptions, run_readings

    defaults = getattr(args, "verify_defaults", {})
    given = [flag for dest, flag in _POSITION_OPTIONS.items() if getattr(args, dest) != defaults.get(dest)]
    if given:
        return _error(
            f"{', '.join(given)}: meaningless with --kind readings, which asks no engine and generates no "
            "positions (it takes NAME..., --steps-only, --yaml, --write-cases DIR and --seed)"
        )
    options = ReadingsOptions(tuple(args.names), args.steps_only, args.seed, args.yaml, args.write_cases)
    return run_readings(options)


def _shard(text: str) -> Shard:
    try:
        return Shard.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def options_from(args: argparse.Namespace) -> VerifyOptions:
    from conformance.verify.generate import VerifyOptions

    return VerifyOptions(
        examples=args.examples,
        seed=args.seed,
        kinds=KINDS if args.kind == "all" else (args.kind,),
        z3=not args.no_z3,
        z3_examples=args.z3_examples,
        differential=not args.no_oracle,
        z3_timeout_ms=max(1, round(args.z3_timeout * 1000)),
        engine_timeout=args.timeout,
        plays=args.plays if args.plays is not None else 0 if args.exhaustive else 2,
        outcome_plies=args.plies,
        shrink=args.shrink,
        max_fail=args.max_fail,
        pieces=args.pieces if args.exhaustive else None,
        shard=args.shard or WHOLE,
        prove=args.prove,
        all_results=args.all_results,
        tally_every=args.tally_every,
    )


def _error(message: str) -> int:
    print(f"draughts-conformance: {message}", file=sys.stderr)
    return USAGE


def run_verify(args: argparse.Namespace) -> int:
    """The ``verify`` command: run, print the summary, then each shrunk disagreement once."""
    from conformance.verify.cluster import ClusterError
    from conformance.verify.pool import WorkerError
    from conformance.verify.resume import ResumeError, cut, read_resumable
    from conformance.verify.run import (  # z3 and Hypothesis: imported when verify runs
        Gate,
        verify,
        verify_header,
    )

    if args.kind == READINGS_KIND:
        return run_readings_kind(args)
    given = [flag for dest, flag in _READINGS_OPTIONS.items() if getattr(args, dest, None)]
    if given:
        return _error(f"{', '.join(given)}: only with --kind readings")
    config.settle(args, engine_flag="--engine SPEC")  # the settings file under the command line
    if args.exhaustive != (args.pieces is not None):
        return _error("--exhaustive and --pieces K go together (every position with at most K pieces)")
    if args.resume is not None and args.report is not None and args.report.resolve() != args.resume.resolve():
        return _error("--resume REPORT goes on writing REPORT: --report names another file")
    if args.proof_record is not None and not args.prove:
        return _error("--proof-record FILE is where --prove writes its record")
    try:
        options = options_from(args)
    except ValueError as error:
        return _error(str(error))
    try:
        baseline = load_baseline(args, lambda known: _positions_listed(known, options), "positions")
    except BaselineError as error:
        return _error(str(error))
    gate = Gate(tuple(args.require), baseline, args.accept_known)
    if args.exhaustive:
        print(
            f"exhaustive: {options.total:,} positions with at most {args.pieces} pieces"
            + (f", {len(options.indices()):,} in shard {options.shard}" if args.shard else ""),
            file=sys.stderr,
        )
    with contextlib.ExitStack() as stack:
        try:  # the engine options (a bad --hub-param, --engine-cwd, --trace): usage errors, no engine started
            chosen = engine_options(args, stack)
            local = engine_factory(args.engine, timeout=args.timeout, **chosen)
            factory: Callable[[], Engine] = local
            if args.workers > 1 or args.scheduler:  # the engine is started in each worker: send its recipe
                factory = EngineRecipe.of(args.engine, args.timeout, **chosen)
        except SpecError as error:
            return _error(str(error))
        try:
            engine = local()
        except EngineError as error:
            stderr = f"\n{error.stderr}" if error.stderr else ""
            return _error(f"the engine {args.engine!r} did not start: {error}{stderr}")
        resumed: Report | None = None
        if args.resume is not None:
            try:
                resumable = read_resumable(args.resume, verify_header(engine.info, options, gate), options)
                cut(args.resume, resumable)
            except (ResumeError, ReportError) as error:
                engine.close()
                return _error(str(error))
            resumed = resumable.report
            print(
                f"resume: {resumable.positions:,} positions checked in {args.resume}"
                + (
                    f" ({resumable.dropped} line(s) after its last tally line dropped)"
                    if resumable.dropped
                    else ""
                )
                + f"; {len(options.indices()) - resumable.positions:,} to go",
                file=sys.stderr,
            )
        report_path = args.resume if args.resume is not None else args.report
        try:
            report_file = (
                stack.enter_context(report_path.open("a" if resumed else "w", encoding="utf-8"))
                if report_path
                else None
            )
        except OSError as error:
            engine.close()
            return _error(f"cannot write the report {report_path}: {error}")
        # Disagreements go to stdout, unless stdout carries a machine-readable summary.
        machine = args.format != "terminal" and args.output is None
        found: IO[str] = sys.stderr if machine else sys.stdout
        writer = _CountingWriter(report_file)
        positions = len(options.indices())
        done = sum(line.positions for line in resumed.tallies) if resumed else 0
        lines = (
            None
            if args.no_progress or sys.stderr.isatty()
            else ProgressLines(positions, writer, resumed=done)
        )
        enabled = not args.no_progress and positions > 20
        try:
            with progress_bar(positions, "positions", enabled) as bar:
                run = verify(
                    factory,
                    options,
                    writer,
                    engine=engine,
                    progress=lines.advance if lines is not None else bar,
                    on_disagreement=lines.found if lines is not None else None,
                    workers=args.workers,
                    scheduler=args.scheduler,
                    on_error=lines.erred if lines is not None else None,
                    gate=gate,
                    resume=resumed,
                )
        except (WorkerError, ClusterError) as error:
            return _error(f"verify stopped: {error}")
        if lines is not None:
            lines.finish(run.positions)
    if options.prove:
        _record_proof(run, args, found)
    if args.write_baseline:
        try:
            write_baseline(args.write_baseline, run.results, engine.info)
        except OSError as error:
            return _error(f"cannot write the baseline to {args.write_baseline}: {error}")
    shrunk = distinct(run.disagreements)
    show = args.show if args.show is not None else (0 if shrunk or run.errors else None)
    try:
        _print(run, args.format, args.output, show)
    except OSError as error:
        return _error(f"cannot write {args.output}: {error}")
    if shrunk:
        print(file=found)
        print(
            f"== {len(shrunk)} disagreement(s), each shrunk to a minimal position "
            "(work out each expectation by hand before pasting a case) ==",
            file=found,
        )
        for disagreement in shrunk:
            print(file=found)
            print(disagreement.text(), file=found, flush=True)
    if run.errors:  # last: the engine's errors, each kind once, shrunk as the disagreements are
        print(file=found)
        print(error_heading([erring.fault.kind for erring in run.errors]), file=found)
        for erring in run.errors:
            print(file=found)
            print(erring.text(), file=found, flush=True)
    return run.exit_status


def _record_proof(run: VerifyRun, args: argparse.Namespace, out: IO[str]) -> None:
    """After ``--prove``: the proof's record, written, when the run proves the oracle."""
    from conformance.verify.proofs import proof_record, record_path, write_record

    if run.header.get("engine", {}).get("name") != "oracle" or run.header.get("shard"):
        return  # another engine proven by z3 (its report says so), or a shard: merge --proof-record
    try:
        record = proof_record(
            run.report, "draughts-conformance " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        )
    except ValueError as error:
        print(f"verify: {error}", file=out)
        return
    path = args.proof_record or record_path(record["pieces"])
    try:
        write_record(record, path)
    except OSError as error:
        print(f"verify: cannot write the proof's record {path}: {error}", file=out)
        return
    print(f"verify: the oracle is proven on {record['positions']:,} positions; record: {path}", file=out)


def error_heading(kinds: Sequence[str]) -> str:
    """The line above the shrunk engine errors: how many, of which kinds (an error is printed for each
    request and message that failed, so one kind may come several times)."""
    counts = Counter(kinds)
    if len(counts) == len(kinds):
        return (
            f"== {len(kinds)} engine error(s), each kind once, shrunk while the engine failed the same way =="
        )
    parts = ", ".join(f"{count} {kind}" for kind, count in counts.most_common())
    return (
        f"== {len(kinds)} engine errors ({parts}), one for each request and message that failed, each "
        "shrunk while the engine failed the same way =="
    )


def _positions_listed(baseline: Baseline, options: VerifyOptions) -> tuple[int, int]:
    """How many of the run's positions the baseline names (a case ``verify-<seed>-<index>`` or
    ``exhaustive-<index>`` of an index in the run, or its start check), and how many there are."""
    indices = options.indices()
    prefix = "exhaustive-" if options.pieces is not None else f"verify-{options.seed}-"
    listed = 0
    for case in baseline.cases:
        index = case.removeprefix(prefix)
        if index == "start" or (index != case and index.isdigit() and int(index) in indices):
            listed += 1
    return listed, len(indices)


def distinct(disagreements: Iterable[Disagreement]) -> list[Disagreement]:
    """Each finding once: the first disagreement of each (shrunk position, kind of finding) --
    the same defect found by two checks (``[invariants]`` and ``[oracle]``) shrinks alike."""
    seen: set[tuple[Position, FindingKind]] = set()
    kept = []
    for disagreement in disagreements:
        key = (disagreement.position, disagreement.kind)
        if key not in seen:
            seen.add(key)
            kept.append(disagreement)
    return kept


class _CountingWriter(ReportWriter):
    """The report writer, counting the positions (cases) with a failing or erring check."""

    def __init__(self, output: IO[str] | None) -> None:
        super().__init__(output)
        self.failing: set[str] = set()

    def result(self, result: Result) -> None:
        if result.status in (Status.FAIL, Status.ERROR):
            self.failing.add(result.case)
        super().result(result)


PROGRESS_SECONDS = 10.0
"""Seconds between two progress lines when standard error is not a terminal."""


class ProgressLines:
    """Progress for logs: ``verify: 1200/5000 positions, 2 failing, 1 shrunk, 35 s`` on stderr
    every :data:`PROGRESS_SECONDS`, a line for each disagreement as it is found, one at the end."""

    def __init__(
        self,
        total: int,
        writer: _CountingWriter | None = None,
        *,
        stream: IO[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        resumed: int = 0,
    ) -> None:
        self.total = total
        self.writer = writer
        self.stream = stream
        self.clock = clock
        self.started = self.last = clock()
        self.done = 0
        self.shrunk = 0
        self.resumed = resumed
        """Positions a resumed run had checked before (not counted in its rate)."""

    def _say(self, text: str) -> None:
        print(f"verify: {text}", file=self.stream or sys.stderr, flush=True)

    def status(self) -> str:
        failing = len(self.writer.failing) if self.writer is not None else 0
        elapsed = self.clock() - self.started
        text = f"{self.done}/{self.total} positions, {failing} failing, {self.shrunk} shrunk, {elapsed:.0f} s"
        left = time_left(self.done - self.resumed, self.total - self.done, elapsed)
        return f"{text}, {left} left" if left and self.done < self.total else text

    def advance(self, done: int) -> None:
        self.done = done
        if self.clock() - self.last >= PROGRESS_SECONDS:
            self.last = self.clock()
            self._say(self.status())

    def found(self, disagreement: Disagreement) -> None:
        self.shrunk += 1
        self._say(
            f"position {disagreement.case}: {disagreement.check}: {disagreement.kind.value}, shrunk to "
            f"{disagreement.position.fen()} (in full at the end)"
        )

    def erred(self, error: ShrunkError) -> None:
        self.shrunk += 1
        self._say(
            f"position {error.case}: {error.check}: the engine {error.fault.describe()}, shrunk to "
            f"{error.position.fen()} (in full at the end)"
        )

    def finish(self, done: int) -> None:
        self.done = done
        self._say(f"done: {self.status()}")


def _z3_use(settings: dict[str, Any]) -> str:
    if not settings.get("z3"):
        return "off"
    if settings.get("prove"):
        return "on every position (--prove)"
    return "on disagreements" if settings.get("pieces") else "on"


def time_left(checked: int, remaining: int, elapsed: float) -> str:
    """The time the ``remaining`` positions will take at the rate the ``checked`` ones took: ``2 h 05 min``,
    ``7 min 30 s``, ``40 s`` ("" before a rate is known)."""
    if checked <= 0 or elapsed <= 0 or remaining <= 0:
        return ""
    seconds = round(remaining * elapsed / checked)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"about {hours} h {minutes:02d} min"
    if minutes:
        return f"about {minutes} min {seconds:02d} s"
    return f"about {seconds} s"


def _print(run: VerifyRun, fmt: str, output: Path | None, show: int | None = None) -> None:
    from conformance.verify.casefile import article_summaries

    settings = run.header.get("verify", {})
    kinds = ", ".join(settings.get("kinds", []))
    if settings.get("pieces"):
        kinds = f"exhaustive, at most {settings['pieces']} pieces"
    shard = run.header.get("shard")
    if shard:
        kinds += f"; shard {shard['index']}/{shard['count']}"
    cited = run.header.get("oracle_proof")
    proven = (
        f"; the oracle is proven on its first {cited['positions']:,} positions ({cited['record']}): "
        "z3 was asked only where the engine disagreed"
        if isinstance(cited, dict) and isinstance(cited.get("positions"), int)
        else "; no proof of the oracle for this code (verify --exhaustive --engine oracle --prove): "
        "z3 was asked only where the engine disagreed"
        if settings.get("pieces") and not settings.get("prove")
        else ""
    )
    epilogue = (
        f"verify: seed {run.header.get('seed')}, {run.positions} of {run.header.get('examples')} "
        f"positions ({kinds}), z3 {_z3_use(settings)}, "
        f"oracle {'on' if settings.get('differential') else 'off'}; "
        f"{len(run.disagreements)} disagreement(s) shrunk"
        + (f", {len(run.errors)} engine error(s) shrunk" if run.errors else "")
        + proven
    )
    print_report(run.report, fmt, output, articles=article_summaries(), epilogue=epilogue, show=show)

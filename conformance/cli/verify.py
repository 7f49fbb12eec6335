"""The ``verify`` subcommand: generated positions through an engine, checked with z3 and the oracle.

    draughts-conformance verify --engine oracle --examples 1000 --seed 7
    draughts-conformance verify --engine jsonl:"node engine.js" -n 500 --seed 1 --report v.jsonl
    draughts-conformance verify --engine mutant:crowned-mid-capture -n 200 --no-oracle
    draughts-conformance verify --kind readings [--steps-only] [--yaml] [NAME ...]

``--kind readings`` is another mode: no engine, no generated positions; it synthesises the games
that tell two readings of Art. 6 apart (:mod:`conformance.verify.readings`).

``register(subparsers)`` adds it to the command line (see ``conformance.cli.main``). The summary comes
first, in ``--format``; then each disagreement found, shrunk (FEN, board, expected vs got, a case
for ``cases/`` with a TODO expectation), each once (by shrunk position and kind of finding), then
each kind of engine error (a crash, a hang, garbage...) once, shrunk while the engine fails the
same way (:mod:`conformance.verify.shrink_errors`), last, where a log ends (printed by
:mod:`conformance.cli.verify_findings`). The engine options of ``run`` apply (``--trace FILE``,
``--engine-cwd``...); with ``--workers N`` each worker process appends to the one trace. The
canonical JSON-lines report (``--report``) is the same stream as a corpus run's, with
``"kind": "verify"`` in its header. Progress: a bar on a terminal; otherwise (CI logs) a line on
stderr every ten seconds, and one when a disagreement is found.

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
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from conformance.cli import config
from conformance.cli.campaign import (
    CAMPAIGN_OPTIONS,
    CampaignError,
    add_campaign_options,
    campaign_problem,
    forget_source,
    open_report,
    record_proof,
)
from conformance.cli.commands import subcommand
from conformance.cli.start import (
    StartError,
    add_rules_option,
    chosen_rule_set,
    engine_factories,
    start_engine,
)
from conformance.cli.verdict_options import add_verdict_options, load_baseline, output_clash, write_baseline
from conformance.cli.verify_findings import distinct, print_findings, print_summary
from conformance.cli.verify_progress import CountingWriter, ProgressLines
from conformance.core.arguments import capped_workers, count, positive, seconds
from conformance.core.baseline import Baseline, BaselineError
from conformance.core.certificate import ExitStatus
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSetError
from conformance.core.shards import WHOLE, Shard
from conformance.engines.adapters.specs import (
    DEFAULT_TIMEOUT,
    SpecError,
    add_engine_options,
    trace_problem,
)
from conformance.report.formats import formats
from conformance.report.output import progress_bar
from conformance.verify import KINDS

if TYPE_CHECKING:  # the driver needs z3 and Hypothesis: it is imported when verify runs
    from conformance.verify.generate import VerifyOptions

OK, FAILED, USAGE = ExitStatus.OK, ExitStatus.FAILED, ExitStatus.USAGE


@subcommand(
    "verify",
    order=50,
    help="check an engine on generated positions with z3, invariants and the oracle",
    description="Generate positions (seeded, reproducible), ask the engine about each and check every "
    "answer: the captures with z3 (soundness, optimality, completeness), invariants (captured squares, "
    "pieces after a move, promotion, colour-flip symmetry) and against the oracle (legal moves, position "
    "after a move, outcome of endgame sequences). Disagreements are shrunk to a minimal position and "
    "printed with a case for cases/. With --kind readings, another mode: no engine and no positions; "
    "for each switch and reading of Art. 6 (or each NAME), the shortest game on which the project's "
    "reading and the other one end differently, replayed with the oracle under both.",
    starts_engine=True,
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``verify`` to the ``draughts-conformance`` subcommands."""
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
        action=_KindsAction,
        metavar="KIND[,KIND...]",
        help=f"which positions to generate, in turn: {', '.join(KINDS)}, several separated by commas "
        "(e.g. chains,draws; or --kind given again), or all (the default); 'readings' is another "
        "mode: games telling readings of Art. 6 apart, no engine (see the readings options)",
    )
    add_rules_option(parser)
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
        "--format", choices=formats(verify=True), default="terminal", help="summary format (default terminal)"
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
    add_campaign_options(scale)
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
    **CAMPAIGN_OPTIONS,
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


def _kinds(text: str) -> str:
    """``--kind``: one kind, several separated by commas, ``all``, or ``readings`` (alone)."""
    names = [name.strip() for name in text.split(",")]
    unknown = [name for name in names if name not in (*KINDS, "all", READINGS_KIND)]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"{unknown[0]!r} is no kind of position: choose among {', '.join(KINDS)} (several separated "
            f"by commas), all, or {READINGS_KIND}"
        )
    alone = [name for name in ("all", READINGS_KIND) if name in names]
    if alone and len(names) > 1:
        raise argparse.ArgumentTypeError(f"{alone[0]} goes alone, not in a list of kinds ({text!r})")
    return ",".join(dict.fromkeys(names))  # each kind once, in the order given


class _KindsAction(argparse.Action):
    """``--kind``, read by :func:`_kinds`; given again it adds its kinds: ``--kind chains --kind
    draws`` is ``--kind chains,draws``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        before = getattr(namespace, self.dest, None)
        text = str(values) if before is None else f"{before},{values}"
        try:
            setattr(namespace, self.dest, _kinds(text))
        except argparse.ArgumentTypeError as error:
            parser.error(f"argument --kind: {error}")


def _shard(text: str) -> Shard:
    try:
        return Shard.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def options_from(args: argparse.Namespace) -> VerifyOptions:
    from conformance.verify.generate import VerifyOptions, unplayed_kinds

    rule_set = getattr(args, "rule_set", None) or INTERNATIONAL_SET
    unplayed = unplayed_kinds(rule_set)
    return VerifyOptions(
        rule_set=rule_set,
        examples=args.examples,
        seed=args.seed,
        kinds=tuple(k for k in KINDS if k not in unplayed)
        if args.kind in (None, "all")
        else tuple(args.kind.split(",")),
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


def game_notes(options: VerifyOptions) -> list[str]:
    """What a run of another game than international leaves out, and why (one line each)."""
    from conformance.verify.generate import unasked_checks, unplayed_kinds

    rule_set = options.rule_set
    if rule_set.is_default:
        return []
    skipped = [f"{kind} positions skipped: {why}" for kind, why in unplayed_kinds(rule_set).items()]
    if "endgames" in options.kinds:
        skipped += [f"{check} not asked: {why}" for check, why in unasked_checks(rule_set).items()]
    return [f"verify --rules {rule_set.name}: {line}" for line in skipped]


def _error(message: str) -> int:
    print(f"draughts-conformance: {message}", file=sys.stderr)
    return USAGE


def run_verify(args: argparse.Namespace) -> int:
    """The ``verify`` command: run, print the summary, then each shrunk disagreement once."""
    from conformance.verify.cluster import ClusterError
    from conformance.verify.generate import draw_timings
    from conformance.verify.pool import WorkerError
    from conformance.verify.run import Gate, verify  # z3 and Hypothesis: imported when verify runs

    if args.kind == READINGS_KIND:
        if getattr(args, "rules", None):
            return _error("--rules: not with --kind readings (the readings are of FMJD's Art. 6)")
        return run_readings_kind(args)
    given = [flag for dest, flag in _READINGS_OPTIONS.items() if getattr(args, dest, None)]
    if given:
        return _error(f"{', '.join(given)}: only with --kind readings")
    settings = config.settle(args, engine_flag="--engine SPEC")  # the settings file under the command line
    try:
        args.rule_set = chosen_rule_set(args)  # before the engine starts: it is started for the game
    except RuleSetError as error:
        return _error(str(error))
    clash = output_clash(args, settings)
    if clash:
        return _error(clash)
    args.workers, warning = capped_workers(args.workers)
    if warning:
        print(f"draughts-conformance: {warning}", file=sys.stderr)
    if args.exhaustive != (args.pieces is not None):
        return _error("--exhaustive and --pieces K go together (every position with at most K pieces)")
    problem = campaign_problem(args)
    if problem:
        return _error(problem)
    try:
        options = options_from(args)
    except ValueError as error:
        return _error(str(error))
    for note in game_notes(options):
        print(f"draughts-conformance: {note}", file=sys.stderr)
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
            # with workers or a cluster the engine is started in each of them: they get its recipe
            local, factory, chosen = engine_factories(
                args, stack, elsewhere=args.workers > 1 or bool(args.scheduler)
            )
        except SpecError as error:
            return _error(str(error))
        try:
            engine = start_engine(args, local)
        except StartError as error:
            return _error(str(error))
        try:
            writer, resumed = open_report(args, engine.info, options, gate, CountingWriter)
        except CampaignError as error:
            engine.close()
            return _error(str(error))
        stack.callback(writer.close)  # whatever happens, the lines written take the report's name
        # Disagreements go to stdout, unless stdout carries a machine-readable summary.
        machine = args.format != "terminal" and args.output is None
        found: IO[str] = sys.stderr if machine else sys.stdout
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
                    spec=args.engine,
                    resume=resumed,
                )
        except (WorkerError, ClusterError) as error:
            return _error(f"verify stopped: {error}")
        if lines is not None:
            lines.finish(run.positions)
        unwritten = "\n".join(p for p in (writer.finish(), trace_problem(chosen)) if p)
        if not unwritten:
            forget_source(args)
    if options.prove:
        record_proof(run, args, found)
    if args.write_baseline:
        try:
            write_baseline(args.write_baseline, run.results, engine.info)
        except OSError as error:
            return _error(f"cannot write the baseline to {args.write_baseline}: {error}")
    shrunk = distinct(run.disagreements)
    show = args.show if args.show is not None else (0 if shrunk or run.errors else None)
    try:
        print_summary(run, args.format, args.output, show)
    except OSError as error:
        return _error(f"cannot write {args.output}: {error}")
    timings = draw_timings(options, run.positions, run.draw_cells, run.draw_cells_from)
    print_findings(run, shrunk, timings, found)
    if unwritten:
        return _error(unwritten)
    return run.exit_status


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

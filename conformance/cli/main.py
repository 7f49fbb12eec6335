"""``draughts-conformance``: certify a draughts engine against the FMJD rules, article by article.

    draughts-conformance run oracle                      # the built-in oracle, whole corpus
    draughts-conformance run jsonl:"node engine.js" --report out.jsonl
    draughts-conformance list --article 4.13
    draughts-conformance show 4.13-three-men-beat-two-kings
    draughts-conformance render out.jsonl --format junit -o junit.xml
    draughts-conformance diff main.jsonl pr.jsonl --format markdown
    draughts-conformance smoke jsonl:"python engine.py" --trace exchange.txt

Exit status (from the run's certificate): 0 when something was certified (for some scope:
moves, positions, notation, games, move-choice) and no question failed or erred -- or every
failure is a known one of --baseline and --accept-known accepts them --; 1 on failures or errors
(known ones too, unless accepted), 2 on usage, engine-spec, corpus or baseline errors, 3 when
nothing could be certified (every question declined or unsupported), a --require RULE[:SCOPE] is
not met, or the run is incomplete; 128 + N when signal N stopped the run (130 for Ctrl-C, 143 for
SIGTERM), with a partial report.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import shlex
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from conformance.cli import commands, config
from conformance.cli.start import (
    StartError,
    add_rules_option,
    chosen_rule_set,
    engine_factories,
    start_engine,
)
from conformance.cli.verdict_options import add_verdict_options, load_baseline, output_clash, write_baseline
from conformance.core import interrupts, rule_sets, rulebook
from conformance.core.arguments import capped_workers, clashing_paths, described, seconds
from conformance.core.baseline import Baseline
from conformance.core.certificate import ExitStatus
from conformance.core.corpus.load import CORPUS_ROOT, CorpusError, corpus_root_for, load_corpus
from conformance.core.corpus.model import Case, Corpus
from conformance.core.errors import ConformanceError, UsageError
from conformance.core.files import atomic_text
from conformance.core.results import Result
from conformance.core.rule_sets import RuleSetError
from conformance.core.shards import Shard
from conformance.engines.adapters import lifetime
from conformance.engines.adapters.specs import (
    DEFAULT_TIMEOUT,
    add_engine_options,
    trace_problem,
)
from conformance.harness.evaluate import expectation_json, question_keys
from conformance.harness.runner import RunOptions, header, run, select_cases
from conformance.report import Report, ReportWriter, read_report
from conformance.report.formats import diff_formats, formats, get_diff_format, get_format
from conformance.report.output import print_report, progress_bar
from conformance.report.progress import RunProgress
from conformance.report.text import as_text, board
from conformance.site import build as _html_format  # noqa: F401  (registers the html format)

OK, FAILED, USAGE, NOT_CERTIFIED = (int(status) for status in ExitStatus)
INTERRUPTED = 128 + signal.SIGINT
CLOSED_OUTPUT = 128 + signal.SIGPIPE


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--article", action="append", default=[], help="only this article (and its sub-articles)"
    )
    parser.add_argument(
        "--case", action="append", default=[], help="only this case id (a trailing * matches a prefix)"
    )
    parser.add_argument("--tag", action="append", default=[], help="only cases with this tag")
    parser.add_argument(
        "--slow", action="store_true", help="include cases tagged slow (deep perft, long games)"
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS_ROOT,
        help="corpus directory (default: the bundled one; with --rules, that rule set's)",
    )
    add_rules_option(parser)


def _shard(text: str) -> Shard:
    try:
        return Shard.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    """The whole command line (:mod:`conformance.cli.commands`), with this module's description."""
    return commands.build_parser(described(__doc__))


@commands.subcommand("run", order=0, help="certify an engine on the corpus", starts_engine=True)
def _run_arguments(run_parser: argparse.ArgumentParser) -> None:
    run_parser.add_argument(
        "engine",
        nargs="?",
        help="engine spec: oracle, python:MOD:ATTR, jsonl:CMD, hub:CMD, dxp:..., or a built-in name "
        "(default: the settings file's, see draughts-conformance config)",
    )
    _add_filters(run_parser)
    run_parser.add_argument("--report", type=Path, help="write the canonical JSON-lines report here")
    run_parser.add_argument(
        "--format", choices=formats(), default="terminal", help="what to print (default terminal)"
    )
    run_parser.add_argument("-o", "--output", type=Path, help="write the printed format to this file instead")
    add_verdict_options(run_parser)
    run_parser.add_argument("--max-fail", type=int, help="stop after this many failures and errors")
    run_parser.add_argument(
        "--show",
        type=int,
        metavar="N",
        help="failures shown in full (default 10 in the terminal, 50 in Markdown)",
    )
    run_parser.add_argument("--workers", type=int, default=1, help="engines run in parallel (default 1)")
    run_parser.add_argument(
        "--shard",
        type=_shard,
        metavar="K/N",
        help="run only shard K of N of the selected cases (case index mod N = K-1); "
        "join the reports with draughts-conformance merge",
    )
    run_parser.add_argument(
        "--timeout", type=seconds, default=DEFAULT_TIMEOUT, help="seconds per request (subprocess engines)"
    )
    run_parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (on a terminal), nor progress lines every few seconds (in a log)",
    )
    add_engine_options(run_parser)
    config.bind(run_parser, (*config.ENGINE_KEYS, *config.VERDICT_KEYS, "workers", "shard"))
    run_parser.set_defaults(handler=_run)


@commands.subcommand("list", order=10, help="list the cases")
def _list_arguments(list_parser: argparse.ArgumentParser) -> None:
    _add_filters(list_parser)
    list_parser.set_defaults(handler=_list)


@commands.subcommand("show", order=20, help="show one case in full")
def _show_arguments(show_parser: argparse.ArgumentParser) -> None:
    show_parser.add_argument("case_id")
    show_parser.add_argument("--corpus", type=Path, default=CORPUS_ROOT)
    add_rules_option(show_parser)
    show_parser.set_defaults(handler=_show)


@commands.subcommand("render", order=30, help="render a saved JSON-lines report")
def _render_arguments(render_parser: argparse.ArgumentParser) -> None:
    render_parser.add_argument("report", type=Path)
    render_parser.add_argument("--format", choices=formats(), default="terminal")
    render_parser.add_argument("-o", "--output", type=Path)
    render_parser.add_argument("--corpus", type=Path, default=CORPUS_ROOT)
    render_parser.add_argument("--show", type=int, metavar="N", help="failures shown in full")
    render_parser.set_defaults(handler=_render)


@commands.subcommand(
    "diff",
    order=40,
    help="compare two reports of an engine: regressions, fixes, changed answers (exit 1 on a regression)",
    description="Compare two JSON-lines reports question by question (case and question) and rule by "
    "rule: new failures (regressions), fixes, changed answers, other status changes, questions added or "
    "removed, certificate standings that moved. Exit 1 on a regression (a question newly failing, or a "
    "rule no longer certified); 3 when a report is partial (interrupted, stopped early, header-only: no "
    "verdict); 0 otherwise.",
)
def _diff_arguments(diff_parser: argparse.ArgumentParser) -> None:
    diff_parser.add_argument("old", type=Path, help="the report to compare against (e.g. the main branch's)")
    diff_parser.add_argument("new", type=Path, help="the new report (e.g. the pull request's)")
    diff_parser.add_argument(
        "--format", choices=diff_formats(), default="terminal", help="terminal, or markdown for a PR comment"
    )
    diff_parser.add_argument("-o", "--output", type=Path, help="write it to this file instead")
    diff_parser.set_defaults(handler=_diff)


def _options(args: argparse.Namespace, baseline: Baseline | None = None) -> RunOptions:
    return RunOptions(
        articles=args.article,
        ids=args.case,
        tags=args.tag,
        exclude_tags=() if args.slow else ("slow",),
        max_fail=getattr(args, "max_fail", None),
        baseline=baseline,
        accept_known=bool(getattr(args, "accept_known", False)),
        workers=max(1, getattr(args, "workers", 1)),
        require=tuple(getattr(args, "require", ()) or ()),
    )


def _corpus(args: argparse.Namespace) -> Corpus:
    """The corpus of the command: ``--corpus``, or with ``--rules`` that rule set's own corpus;
    every case played under the rule set (``args.rule_set`` is set for the engine's start)."""
    try:
        args.rule_set = chosen_rule_set(args)
    except RuleSetError as error:
        raise UsageError(str(error)) from None
    root = args.corpus
    if root == CORPUS_ROOT:
        root = corpus_root_for(args.rule_set)
    return load_corpus(root, args.rule_set)


def writable(path: Path | None, what: str) -> None:
    """UsageError unless ``path`` can be written: its folder exists, and it is not itself a folder.
    Checked before the engine starts, so that a typo does not cost a whole run."""
    if path is None:
        return
    if path.is_dir():
        raise UsageError(f"cannot write {what} to {path}: it is a folder")
    if not path.parent.is_dir():
        raise UsageError(f"cannot write {what} to {path}: the folder {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK):
        raise UsageError(f"cannot write {what} to {path}: the folder {path.parent} is not writable")


def _run(args: argparse.Namespace) -> int:
    clash = output_clash(args, config.settle(args))
    if clash:
        raise UsageError(clash)
    args.workers, warning = capped_workers(args.workers)
    if warning:
        print(f"draughts-conformance: {warning}", file=sys.stderr)
    corpus = _corpus(args)
    cases = select_cases(corpus, _options(args))
    if not cases:
        raise UsageError("no case matches the filters")
    if args.shard is not None:
        cases = args.shard.select(cases)
        if not cases:
            raise UsageError(f"shard {args.shard} has no case: fewer cases match than shards")
    questions = [(case.id, key) for case in cases for key, _ in question_keys(case)]
    options = _options(args, load_baseline(args, lambda known: (known.hidden(questions), len(questions))))
    writable(args.report, "the report")
    writable(args.write_baseline, "the baseline")
    writable(args.output, "the output")
    writable(args.trace, "the trace")
    with contextlib.ExitStack() as stack:
        factory, _, chosen = engine_factories(args, stack)
        try:  # a stale report of an earlier run never stays there
            writer = ReportWriter.for_option(args.report)
        except OSError as error:
            raise UsageError(f"cannot write the report to {args.report}: {error}") from None
        stack.callback(writer.close)  # whatever happens, the lines written take the report's name
        try:
            engine = start_engine(
                args, factory, note=f"\n(no report was written to {args.report})" if args.report else ""
            )
        except StartError as error:
            writer.discard()
            raise UsageError(str(error)) from None
        results: list[Result] = []
        head = header(corpus, engine.info, options, cases, args.engine)
        if args.shard is not None:
            head["shard"] = args.shard.to_json()
        head["rerun"] = rerun_command(args)
        writer.write(head)

        lines = None if args.no_progress or sys.stderr.isatty() else RunProgress(len(cases))

        def sink(result: Result) -> None:
            results.append(result)
            writer.result(result)
            if lines is not None:
                lines.record(result)

        interrupted = False
        try:
            with progress_bar(len(cases), "cases", not args.no_progress and len(cases) > 20) as advance:
                summary = run(
                    cases,
                    factory,
                    options,
                    sink,
                    engine=engine,
                    progress=lines.advance if lines is not None else advance,
                    probes_from=_probe_pool(corpus, options, cases, args.shard),
                )
            footer = summary.to_json()
            if lines is not None:
                lines.finish()
        except KeyboardInterrupt:
            interrupted = True
            footer = Report(head, results, {"interrupted": True}).partial_footer()
            print("draughts-conformance: interrupted; the report is partial", file=sys.stderr)
        writer.write(footer)
        unwritten = [problem for problem in (writer.finish(), trace_problem(chosen)) if problem]
    report = Report(head, results, footer)
    if args.write_baseline:
        try:
            write_baseline(args.write_baseline, results, engine.info)
        except OSError as error:
            raise UsageError(f"cannot write the baseline to {args.write_baseline}: {error}") from None
    _print(report, args.format, args.output, corpus, args.show)
    if unwritten:
        raise UsageError("\n".join(unwritten))
    return interrupts.exit_status() if interrupted else int(report.certificate().exit_status)


def rerun_command(args: argparse.Namespace) -> str:
    """The command that runs this engine again as this run did, for a selection to be added (each
    failure panel adds ``--case ID``): the spec and the engine options that change what it answers."""
    words = ["draughts-conformance", "run", args.engine]
    if args.engine_cwd is not None:
        words += ["--engine-cwd", str(args.engine_cwd)]
    for item in args.hub_param or ():
        words += ["--hub-param", item]
    if args.search_depth is not None:
        words += ["--search-depth", str(args.search_depth)]
    if args.move_time is not None:
        words += ["--move-time", f"{args.move_time:g}"]
    if getattr(args, "rules", None) is not None:  # the game played, as it was given
        words += ["--rules", str(args.rules)]
    return shlex.join(words)


def _probe_pool(corpus: Corpus, options: RunOptions, cases: Sequence[Case], shard: object) -> list[Case]:
    """Where a run of some cases takes its probes from: the cases a whole run would ask (none for
    a shard, whose merged report has them, nor for a run of every case)."""
    every = select_cases(corpus, dataclasses.replace(options, articles=(), ids=(), tags=()))
    if shard is not None or len(every) == len(cases):
        return []
    return every


def _print(
    report: Report, fmt: str, output: Path | None, corpus: Corpus | None, show: int | None = None
) -> None:
    try:
        print_report(report, fmt, output, corpus=corpus, show=show)
    except BrokenPipeError:
        raise  # the reader of standard output is gone: main ends quietly
    except OSError as error:
        raise UsageError(f"cannot write {output or 'standard output'}: {error}") from None


def _list(args: argparse.Namespace) -> int:
    corpus = _corpus(args)
    cases = select_cases(corpus, _options(args))
    rows = [
        (
            case.id,
            case.judged_under,
            ",".join(dict.fromkeys(q.kind for q in case.questions)),
            case.description,
        )
        for case in cases
    ]
    widths = [max((len(row[column]) for row in rows), default=0) for column in range(3)]
    for case_id, rule, kinds, description in rows:  # columns as wide as their longest entry
        print(f"{case_id:{widths[0]}}  {rule:{widths[1]}}  {kinds:{widths[2]}}  {description}")
    print(f"{len(cases)} case(s)", file=sys.stderr)
    return OK


def _show(args: argparse.Namespace) -> int:
    corpus = _corpus(args)
    case = corpus.by_id().get(args.case_id)
    if case is None:
        close = [c for c in corpus.by_id() if args.case_id in c][:5]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UsageError(f"no case {args.case_id!r} in the corpus{hint}")
    print(describe_case(case, corpus))
    return OK


def describe_case(case: Case, corpus: Corpus) -> str:
    lines = [
        f"{case.id}  ({case.where})",
        f"checks:   Art. {case.article} ({corpus.articles.get(case.article, '?')})",
    ]
    if case.requires:
        lines.append(
            f"requires: {', '.join(case.requires)} (a failure is blocked when the engine fails one of these directly)"
        )
    lines += [
        f"what:     {case.description}",
        f"source:   {case.source}",
        f"position: {case.position}",
    ]
    if case.counters:
        lines.append(f"counters: {dict(case.counters)} (asked only of engines with the counters capability)")
    if case.interpretation:
        reading = corpus.readings.get(case.interpretation.reading)
        lines.append(
            f"reading:  {case.interpretation.reading} (results filed under it): {reading.text if reading else '?'}"
        )
        if case.interpretation.note:
            lines.append(f"          {case.interpretation.note}")
    lines.append(board(case.position))
    for key, question in question_keys(case):
        lines.append(f"{key}: {as_text(expectation_json(question))}")
    sections = [(f"Art. {case.article}, as this project reads it (docs/rules.md)", case.article, False)]
    if case.reading:
        sections.append((f"the reading {case.reading} (docs/rules.md)", case.reading, True))
    for title, key, is_reading in sections:
        with contextlib.suppress(rulebook.RulebookError):
            section = rulebook.reading(key) if is_reading else rulebook.section(key)
            lines += ["", f"-- {title} --", section.body.strip()]
    return "\n".join(lines)


def _render(args: argparse.Namespace) -> int:
    problem = clashing_paths({"the report": args.report}, {"-o": args.output})
    if problem:
        raise UsageError(problem)
    report = read_report(args.report, summarise=get_format(args.format).summarised)
    try:  # the corpus of the report's own rule set
        played = rule_sets.from_header(report.header)
        root = corpus_root_for(played) if args.corpus == CORPUS_ROOT else args.corpus
        corpus: Corpus | None = load_corpus(root, played)
    except (CorpusError, RuleSetError):
        corpus = None
    _print(report, args.format, args.output, corpus, args.show)
    return OK


def _diff(args: argparse.Namespace) -> int:
    from conformance.report.diff import diff_reports

    problem = clashing_paths({"the old report": args.old, "the new report": args.new}, {"-o": args.output})
    if problem:
        raise UsageError(problem)
    old, new = read_report(args.old), read_report(args.new)
    other_game = rule_sets.mismatch({str(args.old): old.header, str(args.new): new.header})
    if other_game:
        raise UsageError(f"{other_game}: a diff compares two runs of one game")
    found = diff_reports(old, new)
    text = get_diff_format(args.format).render(found)
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            with atomic_text(args.output) as stream:
                stream.write(text)
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error}") from None
    return found.exit_status


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    interrupts.install()
    lifetime.install()  # no engine outlives the harness: SIGTERM, SIGHUP and exit kill them
    try:
        status = int(args.handler(args))
        sys.stdout.flush()  # here, where a closed pipe can still be caught
        return status
    except BrokenPipeError:  # `draughts-conformance list | head`: the reader is gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_OUTPUT
    except ConformanceError as error:  # a usage, case or report error, an engine that failed...
        print(f"draughts-conformance: {error}", file=sys.stderr)
        return int(commands.exit_status_of(error))
    except KeyboardInterrupt:
        print("draughts-conformance: interrupted", file=sys.stderr)
        return interrupts.exit_status()

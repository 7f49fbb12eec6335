"""``draughts-conformance merge``: shard reports joined into the report of the unsharded run.

    draughts-conformance run oracle --shard 1/2 --report s1.jsonl      # e.g. two CI jobs
    draughts-conformance run oracle --shard 2/2 --report s2.jsonl
    draughts-conformance merge s1.jsonl s2.jsonl --report all.jsonl   # one report, one certificate

The merged report has one header (the first shard's, without its ``shard`` field, with the
shards' case and question counts added up and ``merged_shards`` recorded), the results in the
order of the unsharded run, and a footer with the counts and the certificate recomputed over all
the results (:meth:`conformance.report.Report.certificate`): the same results and certificate as
the unsharded run. Order: shard ``K`` of ``N`` holds the items ``K - 1, K - 1 + N, ...``
(:mod:`conformance.core.shards`), so corpus cases are dealt back in turn and ``verify`` positions are
sorted by the index their case name ends with. A campaign's ``tally`` lines (its counted passes)
are added up span by span (:func:`conformance.core.tallies.merged`): the unsharded run's lines.

Shards of different runs are refused (exit 2, naming the field that differs): another suite
version, corpus, engine (name, version, adapter, capabilities), filters, seed, number of positions
or verify options. The number of workers may differ. Every shard of ``1..N`` must be there once,
and finished (a footer).

Exit status: the merged certificate's, as for ``run`` (0 certified, 1 failures or errors, 3 nothing
certified or incomplete), or 2 on a usage error or a refused merge.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from conformance.cli.commands import subcommand
from conformance.core import rule_sets
from conformance.core.arguments import clashing_paths
from conformance.core.certificate import ExitStatus
from conformance.core.corpus.load import CORPUS_ROOT, CorpusError, corpus_root_for, load_corpus
from conformance.core.files import atomic_text
from conformance.core.results import Result
from conformance.core.shards import WHOLE, Shard
from conformance.core.stream import header_differences
from conformance.core.tallies import merged as merged_tallies
from conformance.core.tallies import report_problem
from conformance.harness.runner import RunSummary
from conformance.report import Report, ReportError, ReportWriter, read_report
from conformance.report.formats import formats, write_canonical
from conformance.report.output import print_report

VOLATILE: Final = frozenset({"type", "started", "shard", "selected_cases", "questions", "merged_shards"})
"""Header fields that may differ between the shards of one run."""
SUMMED: Final = ("selected_cases", "questions")
"""Header fields of a corpus run that are the shard's share: added up."""
_INDEX: Final = re.compile(r"-(\d+)$")


class MergeError(ReportError):
    """The reports are not the shards of one run."""


def _shard(report: Report) -> Shard:
    raw = report.header.get("shard")
    if raw is None:
        return WHOLE
    try:
        return Shard.from_json(raw)
    except (KeyError, TypeError, ValueError) as error:
        raise MergeError(f"{report.source}: a malformed shard field {raw!r}: {error}") from None


def identity(header: dict[str, Any]) -> dict[str, Any]:
    """What must be equal for two reports to be shards of one run (the worker count may differ)."""
    same = {key: value for key, value in header.items() if key not in VOLATILE}
    filters = same.get("filters")
    if isinstance(filters, dict):
        same["filters"] = {key: value for key, value in filters.items() if key != "workers"}
    return same


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _checked(reports: Sequence[Report]) -> list[tuple[Shard, Report]]:
    """The reports by shard index, once each shard of one run has been found, or a MergeError."""
    if not reports:
        raise MergeError("no report to merge")
    shards = [(_shard(report), report) for report in reports]
    first_shard, first = shards[0]
    expected = identity(first.header)
    other_game = rule_sets.mismatch({report.source: report.header for report in reports})
    if other_game:
        raise MergeError(f"{other_game}: shards of one run play one rule set")
    for shard, report in shards:
        if report.interrupted or "counts" not in report.footer:
            raise MergeError(f"{report.source}: the shard did not finish (no footer): run it again")
        if shard.count != first_shard.count:
            raise MergeError(
                f"{first.source} is shard {first_shard} but {report.source} is shard {shard}: "
                "shards of one run have the same N"
            )
        differ = header_differences(
            expected, identity(report.header), lambda mine, theirs: f"{_short(mine)} vs {_short(theirs)}"
        )
        if differ:
            raise MergeError(
                f"{first.source} and {report.source} are not shards of one run: {'; '.join(differ[:3])}"
            )
    by_index: dict[int, Report] = {}
    for shard, report in shards:
        if shard.index in by_index:
            raise MergeError(f"shard {shard} given twice: {by_index[shard.index].source} and {report.source}")
        by_index[shard.index] = report
    absent = first_shard.count - len(by_index)
    if absent:
        named = itertools.islice((i for i in range(1, first_shard.count + 1) if i not in by_index), 5)
        listed = ", ".join(f"{index}/{first_shard.count}" for index in named)
        more = f" and {absent - 5:,} more" if absent > 5 else ""
        raise MergeError(f"missing shard(s) {listed}{more}: a merged report needs every shard")
    return [(Shard(index, first_shard.count), by_index[index]) for index in sorted(by_index)]


def _by_case(results: Sequence[Result]) -> Iterator[list[Result]]:
    """Consecutive results of one case, grouped."""
    group: list[Result] = []
    for result in results:
        if group and result.case != group[0].case:
            yield group
            group = []
        group.append(result)
    if group:
        yield group


def _dealt(parts: Sequence[Sequence[Result]]) -> list[Result]:
    """Corpus results back in corpus order: case ``i`` is case ``i // N`` of shard ``i mod N + 1``."""
    groups = [list(_by_case(part)) for part in parts]
    merged: list[Result] = []
    for turn in range(max((len(g) for g in groups), default=0)):
        for shard_groups in groups:
            if turn < len(shard_groups):
                merged += shard_groups[turn]
    return merged


def _position(result: Result) -> int:
    """A verify result's position index; the start-position check (``verify-S-start``) comes first."""
    if result.case.endswith("-start"):
        return -1
    match = _INDEX.search(result.case)
    if match is None:
        raise MergeError(f"the verify result {result.case!r} does not end with its position index")
    return int(match[1])


def merge_reports(reports: Sequence[Report]) -> Report:
    """The report of the unsharded run from its shards' reports (in any order)."""
    shards = _checked(reports)
    parts = [report.results for _, report in shards]
    verify = any(report.header.get("kind") == "verify" for _, report in shards)
    # verify: sorted by position (a stable sort: a position's rows keep their order); run: dealt back
    results = sorted((r for part in parts for r in part), key=_position) if verify else _dealt(parts)
    headers = [report.header for _, report in shards]
    footers = [report.footer for _, report in shards]
    header = {key: value for key, value in headers[0].items() if key != "shard"}
    for key in SUMMED:
        if key in header:
            header[key] = sum(int(h.get(key, 0)) for h in headers)
    header["started"] = min(str(h.get("started", "")) for h in headers)
    header["merged_shards"] = len(shards)
    stopped = any(bool(f.get("stopped_early")) for f in footers)
    provisional = {"type": "footer", "stopped_early": stopped}
    tallies = merged_tallies([line for _, report in shards for line in report.tallies])
    problem = report_problem(header, tallies, results)
    if problem is not None:
        raise MergeError(f"the shards' tally lines do not add up: {problem}")
    certificate = Report(header, results, provisional, tallies=tallies).certificate()
    order = {f"{r.case} {r.question}": n for n, r in enumerate(results)}
    unexpected = sorted(
        (str(text) for f in footers for text in f.get("unexpected_passes", [])),
        key=lambda text: order.get(text, len(order)),
    )
    summary = RunSummary(
        Report(header, results, provisional, tallies=tallies).counts(),
        sum(int(f.get("baselined", 0)) for f in footers),
        unexpected,
        stopped,
        max(float(f.get("duration_s", 0.0)) for f in footers),
        certificate,
    )
    footer = summary.to_json()
    footer["finished"] = max(
        (str(f["finished"]) for f in footers if "finished" in f),
        default=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    )
    if verify:
        failures = [f["first_failure"] for f in footers if f.get("first_failure") is not None]
        footer["positions"] = sum(int(f.get("positions", 0)) for f in footers)
        footer["first_failure"] = min(failures) if failures else None
    notes = tuple(dict.fromkeys(note for _, report in shards for note in report.notes))
    return Report(header, results, footer, notes=notes, tallies=tallies)


@subcommand(
    "merge",
    order=120,
    help="join the reports of a run's shards (--shard K/N) into the report of the whole run",
    description="Join shard reports (run or verify --shard K/N) into one report equal to the unsharded "
    "run's: one header, the results in the unsharded order, a footer with the counts and the certificate "
    "recomputed over all the results. Refuses reports of different runs.",
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``merge`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument("reports", nargs="+", type=Path, metavar="SHARD.jsonl", help="every shard's report")
    parser.add_argument("--report", type=Path, help="write the merged JSON-lines report here")
    parser.add_argument(
        "--format", choices=formats(), default="terminal", help="what to print (default terminal)"
    )
    parser.add_argument("-o", "--output", type=Path, help="write the printed format to this file instead")
    parser.add_argument("--corpus", type=Path, default=CORPUS_ROOT, help="corpus (for the article titles)")
    parser.set_defaults(handler=run_merge)


def _fail(message: str) -> int:
    print(f"draughts-conformance: {message}", file=sys.stderr)
    return int(ExitStatus.USAGE)


def run_merge(args: argparse.Namespace) -> int:
    """The ``merge`` command: read, check, merge, write, print; exit with the merged certificate's status."""
    problem = clashing_paths(
        {f"shard {path}": path for path in args.reports}, {"--report": args.report, "-o": args.output}
    )
    if problem:
        return _fail(problem)
    try:
        merged = merge_reports([read_report(path) for path in args.reports])
    except (ReportError, MergeError) as error:
        return _fail(str(error))
    if args.report is not None:
        try:
            with atomic_text(args.report) as stream:
                write_canonical(merged, ReportWriter(stream))
        except OSError as error:
            return _fail(f"cannot write the report {args.report}: {error}")
    try:  # the corpus of the merged run's rule set
        played = rule_sets.from_header(merged.header)
        corpus = load_corpus(corpus_root_for(played) if args.corpus == CORPUS_ROOT else args.corpus, played)
    except (CorpusError, rule_sets.RuleSetError):
        corpus = None
    try:
        print_report(merged, args.format, args.output, corpus=corpus)
    except OSError as error:
        return _fail(f"cannot write {args.output}: {error}")
    return int(merged.footer["exit_status"])

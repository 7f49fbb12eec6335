"""The options of ``verify`` for long campaigns: counted passes, ``--resume``, ``--prove``.

A campaign of millions of positions counts its passes (``tally`` lines, :mod:`conformance.core.tallies`;
``--all-results`` lists every one), goes on after an interruption where its report stops
(``--resume REPORT``, :mod:`conformance.verify.resume`), and proves the oracle with z3 on every
position (``--prove``, :mod:`conformance.verify.proofs`), a proof later campaigns cite. The
``verify`` command (:mod:`conformance.cli.verify`) adds these options and calls these helpers.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, TypeVar

from conformance.core.arguments import positive
from conformance.core.errors import UsageError
from conformance.core.protocol import EngineInfo
from conformance.core.stream import Report, ReportWriter

if TYPE_CHECKING:  # z3 and Hypothesis: imported when verify runs
    from conformance.verify.generate import VerifyOptions
    from conformance.verify.run import Gate, VerifyRun

W = TypeVar("W", bound=ReportWriter)

CAMPAIGN_OPTIONS: Final = {
    "prove": "--prove",
    "proof_record": "--proof-record",
    "all_results": "--all-results",
    "tally_every": "--tally-every",
    "resume": "--resume",
}
"""The campaign options (argument name -> flag), among the options of the positions."""


class CampaignError(UsageError, ValueError):
    """A campaign option that cannot be followed (a report that cannot be resumed...)."""


def add_campaign_options(group: Any) -> None:
    """Add the campaign options to ``verify``'s group of scale options."""
    group.add_argument(
        "--prove",
        action="store_true",
        help="with --exhaustive: z3 on every position with a capture and the verifier's own steps on the "
        "others (by default z3 checks only where the engine and the oracle disagree); with --engine oracle, "
        "a proof of the oracle, recorded with its code digest (--proof-record)",
    )
    group.add_argument(
        "--proof-record",
        type=Path,
        metavar="FILE",
        help="with --prove of the oracle: where to write the proof's record (default: the suite's own, "
        "conformance/proofs/oracle-K.json, which later campaigns cite)",
    )
    group.add_argument(
        "--all-results",
        action="store_true",
        help="a report line for every result; by default passes are counted, one tally line per span of "
        "positions, and only failures, errors and skips have lines of their own",
    )
    group.add_argument(
        "--tally-every",
        type=positive,
        metavar="N",
        help="positions (indices of the whole run) per tally line; default 100,000 exhaustive, 1,000 drawn, "
        "times N for a shard K/N (so each line counts that many of the shard's positions): also how much a "
        "resumed campaign checks again. Give a one-shot run and merged shards the same N to compare them line "
        "for line",
    )
    group.add_argument(
        "--resume",
        type=Path,
        metavar="REPORT",
        help="go on with the interrupted run whose report this is (the same command otherwise), from its "
        "last tally line: no position checked twice, none skipped (a run killed outright left its lines in "
        "REPORT.PID.partial beside it: found)",
    )


def campaign_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the campaign options together (None: nothing)."""
    if args.resume is not None and args.report is not None and args.report.resolve() != args.resume.resolve():
        return "--resume REPORT goes on writing REPORT: --report names another file"
    if args.proof_record is not None and not args.prove:
        return "--proof-record FILE is where --prove writes its record"
    return None


def open_report(
    args: argparse.Namespace, info: EngineInfo, options: VerifyOptions, gate: Gate, writer: type[W]
) -> tuple[W, Report | None]:
    """The writer of the run's report, and with ``--resume`` the part of the interrupted report the
    run goes on from (its kept lines already written again through the writer); CampaignError."""
    if args.resume is None:
        try:
            return writer.for_option(args.report), None
        except OSError as error:
            raise CampaignError(f"cannot write the report {args.report}: {error}") from None
    from conformance.verify.resume import ResumeError, read_resumable, resume_source
    from conformance.verify.run import verify_header

    try:
        source = resume_source(args.resume)
        resumable = read_resumable(source, verify_header(info, options, gate, args.engine), options)
    except ResumeError as error:
        raise CampaignError(str(error)) from None
    try:
        out = writer.to_path(args.resume)
    except OSError as error:
        raise CampaignError(f"cannot write the report {args.resume}: {error}") from None
    resumable.copy_into(out)
    args.resumed_from = source
    dropped = f" ({resumable.dropped} line(s) after its last tally line dropped)" if resumable.dropped else ""
    print(
        f"resume: {resumable.positions:,} positions checked in {source}{dropped}; "
        f"{len(options.indices()) - resumable.positions:,} to go",
        file=sys.stderr,
    )
    return out, resumable.report


def forget_source(args: argparse.Namespace) -> None:
    """Once the resumed report is written whole under its name, remove the ``.partial`` file of the
    killed run it went on from (a renamed report was replaced already)."""
    source: Path | None = getattr(args, "resumed_from", None)
    if source is not None and args.resume is not None and source.resolve() != args.resume.resolve():
        source.unlink(missing_ok=True)


def record_proof(run: VerifyRun, args: argparse.Namespace, out: IO[str]) -> None:
    """After ``--prove``: the proof's record, written, when the run proves the oracle."""
    from conformance.verify.proofs import proof_record, record_path, write_record

    if run.header.get("engine", {}).get("name") != "oracle" or run.header.get("shard"):
        return  # another engine proven by z3 (its report says so), or a shard
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


def proof_note(header: dict[str, Any]) -> str:
    """What an exhaustive campaign's summary says of the proof of the oracle it relies on."""
    settings = header.get("verify", {})
    cited = header.get("oracle_proof")
    if isinstance(cited, dict) and isinstance(cited.get("positions"), int):
        return (
            f"; the oracle is proven on its first {cited['positions']:,} positions ({cited['record']}): "
            "z3 was asked only where the engine disagreed"
        )
    game = header.get("rules", {}).get("name") if isinstance(header.get("rules"), dict) else None
    if settings.get("pieces") and game:
        return (
            f"; no proof of {game}'s oracle (the proof records are of international draughts): "
            "z3 was asked only where the engine disagreed"
        )
    if settings.get("pieces") and not settings.get("prove"):
        return (
            "; no proof of the oracle for this code (verify --exhaustive --engine oracle --prove): "
            "z3 was asked only where the engine disagreed"
        )
    return ""


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

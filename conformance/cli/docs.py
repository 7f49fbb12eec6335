"""The ``docs`` subcommand: ``draughts-conformance docs --out DIR [--report R.jsonl ...] [--corpus DIR]``.

``register(subparsers)`` adds it to the command line (see ``conformance.cli.main``). The handler
returns the exit status: 0 when the site was written; corpus and report problems raise
:class:`~conformance.core.corpus.CorpusError` / :class:`~conformance.report.ReportError`, which the
command line reports in one line with status 2; an output directory that cannot be written is
reported the same way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from conformance.cli.commands import subcommand
from conformance.core.certificate import ExitStatus
from conformance.core.corpus.load import CORPUS_ROOT, load_corpus
from conformance.report import read_report
from conformance.site.build import write_site

USAGE = ExitStatus.USAGE


@subcommand(
    "docs",
    order=70,
    help="write the rule-by-rule documentation site (HTML, SVG boards)",
    description="Write a static site: one page per article (rule, readings, cases with diagrams, each "
    "engine's results), one page per engine, and an engines x articles matrix. Plain HTML and CSS.",
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``docs`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument("--out", type=Path, required=True, help="directory to write the site into")
    parser.add_argument(
        "--report",
        type=Path,
        action="append",
        default=[],
        help="a saved JSON-lines run report (repeat for several engines)",
    )
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS_ROOT, help="corpus directory (default: the bundled one)"
    )
    parser.set_defaults(handler=docs)


def docs(args: argparse.Namespace) -> int:
    """Build the site; print where it is."""
    started = time.perf_counter()
    corpus = load_corpus(args.corpus)
    reports = [read_report(path, summarise=True) for path in args.report]
    try:
        written = write_site(args.out, corpus, reports)
    except OSError as error:
        print(f"draughts-conformance: cannot write the site to {args.out}: {error}", file=sys.stderr)
        return USAGE
    pages = sum(1 for path in written if path.suffix == ".html")
    elapsed = time.perf_counter() - started
    print(
        f"wrote {pages} pages ({len(corpus.cases)} cases, {len(reports)} engine report(s)) to "
        f"{args.out} in {elapsed:.1f} s; open {args.out / 'index.html'}",
        file=sys.stderr,
    )
    return ExitStatus.OK

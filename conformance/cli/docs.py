"""The ``docs`` subcommand: ``draughts-conformance docs --out DIR [--report R.jsonl ...] [--corpus DIR]``.

``register(subparsers)`` adds it to the command line (see ``conformance.cli.main``). The handler
returns the exit status: 0 when the site was written (with the bundled corpus, one folder of pages
per other built-in game: its corpus, and the reports of that game); corpus and report problems raise
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
from conformance.core.corpus.load import CORPUS_ROOT, RULESETS_ROOT, corpus_root_for, load_corpus
from conformance.core.corpus.model import Corpus
from conformance.core.rule_sets import rule_set
from conformance.report import read_report
from conformance.site.build import write_site
from oracle.ruleset import BUILTIN

USAGE = ExitStatus.USAGE


@subcommand(
    "docs",
    order=70,
    help="write the rule-by-rule documentation site (HTML, SVG boards)",
    description="Write a static site: one page per article (rule, readings, cases with diagrams, each "
    "engine's results), one page per engine, and an engines x articles matrix; the same for each other "
    "game of the family (DIR/russian/...), with the reports of that game. Plain HTML and CSS.",
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``docs`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument("--out", type=Path, required=True, help="directory to write the site into")
    parser.add_argument(
        "--report",
        type=Path,
        action="append",
        default=[],
        help="a saved JSON-lines run report (repeat for several engines; a report of another game goes "
        "to that game's pages)",
    )
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS_ROOT, help="corpus directory (default: the bundled one)"
    )
    parser.set_defaults(handler=docs)


def docs(args: argparse.Namespace) -> int:
    """Build the site; print where it is."""
    started = time.perf_counter()
    corpus = load_corpus(args.corpus)
    games = game_corpora() if args.corpus == CORPUS_ROOT else {}
    reports = [read_report(path, summarise=True) for path in args.report]
    try:
        written = write_site(args.out, corpus, reports, games)
    except OSError as error:
        print(f"draughts-conformance: cannot write the site to {args.out}: {error}", file=sys.stderr)
        return USAGE
    pages = sum(1 for path in written if path.suffix == ".html")
    elapsed = time.perf_counter() - started
    cases = len(corpus.cases) + sum(len(game.cases) for game in games.values())
    print(
        f"wrote {pages} pages ({cases} cases, {len(reports)} engine report(s)) to "
        f"{args.out} in {elapsed:.1f} s; open {args.out / 'index.html'}",
        file=sys.stderr,
    )
    return ExitStatus.OK


def game_corpora() -> dict[str, Corpus]:
    """The bundled corpus of every other built-in game (``rulesets/cases/<name>/``), by name."""
    games = {}
    for name in BUILTIN:
        played = rule_set(name)
        if not played.is_default and (RULESETS_ROOT / name).is_dir():
            games[name] = load_corpus(corpus_root_for(played), played)
    return games

"""``draughts-conformance matrix``: run every built-in real engine over the corpus and write the
engine x rule table.

    draughts-conformance matrix                       # install what it can, run, write the table
    draughts-conformance matrix --from-reports        # only rewrite the table from the stored reports
    draughts-conformance matrix --site out/site       # and build the site from the same reports

Each engine of :data:`~conformance.engines.thirdparty.BUILTIN_ENGINES` is installed in its venv
(unless ``--no-install``; one that will not install is reported and keeps the report it had),
run over the default corpus, and its report stored in ``--reports`` (default ``docs/matrix``)
as ``NAME.jsonl``: the canonical report, made reproducible -- no timings, no start time, the
engines folder written ``<engines>``, the suite's own folder ``<repository>`` -- so that it changes only when an answer does. The table
(:mod:`conformance.report.matrix`) is then a pure function of the stored reports: written into
``--readme`` (default ``README.md``) between its markers, printed otherwise, and drawn on the
site's index with ``--site``.

``--rules GAME`` runs the engines in another game of the family (its own corpus, each engine
started for it) and stores the reports in ``--reports``/GAME/; the README's table stays the
international one (``--readme -`` prints the game's). ``--site`` draws every game whose reports
are stored there, each on its own pages (docs/rulesets.md, "The site").

Any other engine spec can be named too (``matrix oracle mutant:short-kings --no-install --readme -``):
it is run as ``run`` runs it, its report stored under a file-safe form of the spec.

Exit status: 0 when the table was written from a report of every engine asked for, 1 when an
engine could not be installed or run (the table is still written from the reports there are), 2
for usage errors (a README without the markers, no report at all).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from conformance.cli.commands import subcommand
from conformance.cli.start import add_rules_option, chosen_rule_set
from conformance.core.arguments import seconds
from conformance.core.chain import ChainWriter
from conformance.core.corpus.load import CORPUS_ROOT, corpus_root_for, load_corpus
from conformance.core.corpus.model import Corpus
from conformance.core.errors import UsageError
from conformance.core.files import atomic_text
from conformance.core.protocol import EngineError
from conformance.core.results import Result
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet, RuleSetError
from conformance.engines.adapters.specs import DEFAULT_TIMEOUT, SpecError, engine_factory
from conformance.engines.base import InstallError
from conformance.engines.selfinstall import SelfInstallError
from conformance.engines.thirdparty import BUILTIN_ENGINES, engines_dir, install
from conformance.harness.runner import RunOptions, header, run, select_cases
from conformance.report import Report, read_report
from conformance.report.matrix import MatrixError, build_matrix, matrix_markdown, replace_block
from conformance.site.model import slug

OK: Final = 0
INCOMPLETE: Final = 1
USAGE: Final = 2
DEFAULT_REPORTS: Final = Path("docs/matrix")
ENGINES_PLACEHOLDER: Final = "<engines>"
REPOSITORY_PLACEHOLDER: Final = "<repository>"
"""Written for the folder holding the ``conformance`` package (the checkout, or site-packages): the
path of a server the suite ships (``draughts_js.js``) is not the same on two machines or worktrees."""
REPOSITORY: Final = Path(__file__).resolve().parents[2]
_CLOCK: Final = frozenset({"started", "finished", "duration_s"})
"""Header and footer fields that say when and how long, not what: left out of a stored report."""


class MatrixUsageError(UsageError):
    """Bad input to ``matrix``: one line on stderr, exit status 2."""


@subcommand(
    "matrix",
    order=90,
    help="run every built-in real engine over the corpus and write the engine x rule table",
    description="Install (unless --no-install) and run each built-in real engine over the default "
    "corpus, store its report in --reports, and write the engine x rule table into the README "
    "between its markers (and the site's index with --site). --from-reports only rewrites the table.",
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``matrix`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument(
        "names",
        nargs="*",
        metavar="ENGINE",
        help=f"engines (default: all of {', '.join(BUILTIN_ENGINES)}); any engine spec is run as it is, "
        "a built-in one is installed first",
    )
    parser.add_argument(
        "--reports",
        type=Path,
        default=DEFAULT_REPORTS,
        help=f"where reports are kept (default {DEFAULT_REPORTS})",
    )
    parser.add_argument(
        "--readme",
        type=Path,
        default=Path("README.md"),
        help="the file whose matrix block is rewritten (default README.md); '-' prints the table",
    )
    parser.add_argument(
        "--site", type=Path, help="also build the site from the stored reports into this folder"
    )
    parser.add_argument(
        "--from-reports", action="store_true", help="run nothing: rewrite the table from the stored reports"
    )
    parser.add_argument("--no-install", action="store_true", help="use the installed engines only")
    parser.add_argument(
        "--timeout", type=seconds, default=DEFAULT_TIMEOUT, help="seconds per request (default %(default)s)"
    )
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS_ROOT, help="corpus directory (default: the bundled one)"
    )
    add_rules_option(parser)
    parser.set_defaults(handler=matrix_command)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def matrix_command(args: argparse.Namespace) -> int:
    try:
        return _matrix(args)
    except (MatrixUsageError, MatrixError) as error:
        _say(f"draughts-conformance matrix: {error}")
        return USAGE


def _matrix(args: argparse.Namespace) -> int:
    names = list(dict.fromkeys(args.names)) or list(BUILTIN_ENGINES)
    try:
        played = chosen_rule_set(args)
    except RuleSetError as error:
        raise MatrixUsageError(str(error)) from None
    readme = None if str(args.readme) == "-" else args.readme
    if not played.is_default:
        return _game_matrix(args, names, played, readme)
    if readme is not None:  # checked before hours of running, not after
        try:
            replace_block(readme.read_text(encoding="utf-8"), "")
        except OSError as error:
            raise MatrixUsageError(f"cannot read {readme}: {error}") from None
    corpus = load_corpus(args.corpus)
    failed = []
    if not args.from_reports:
        args.reports.mkdir(parents=True, exist_ok=True)
        for index, name in enumerate(names, start=1):
            _say(f"[{index}/{len(names)}] {name}")
            problem = _refresh(name, args, corpus)
            if problem:
                failed.append(name)
                _say(f"{name}: {problem}; the table keeps its stored report, if any")
    reports = stored_reports(args.reports, names)
    if not reports:
        raise MatrixUsageError(
            f"no report in {args.reports}: run draughts-conformance matrix without --from-reports"
        )
    table = matrix_markdown(build_matrix(reports))
    if readme is None:
        sys.stdout.write(table)
    else:
        readme.write_text(replace_block(readme.read_text(encoding="utf-8"), table), encoding="utf-8")
        _say(f"wrote the matrix of {len(reports)} engine(s) into {readme}")
    if args.site is not None:
        _write_site(args, corpus, reports, names)
    missing = [name for name in names if not report_path(args.reports, name).is_file()]
    return INCOMPLETE if failed or missing else OK


def _game_matrix(args: argparse.Namespace, names: list[str], played: RuleSet, readme: Path | None) -> int:
    """``matrix --rules GAME``: run the engines in that game, store their reports in
    ``--reports``/GAME/, print the game's table with ``--readme -``; the README keeps its table."""
    folder = args.reports / played.name
    root = args.corpus if args.corpus != CORPUS_ROOT else corpus_root_for(played)
    corpus = load_corpus(root, played)
    failed = []
    if not args.from_reports:
        folder.mkdir(parents=True, exist_ok=True)
        for index, name in enumerate(names, start=1):
            _say(f"[{index}/{len(names)}] {name} ({played.name})")
            problem = _refresh(name, args, corpus, played)
            if problem:
                failed.append(name)
                _say(f"{name}: {problem}; its stored report of {played.name}, if any, is kept")
    reports = stored_reports(folder, names)
    if not reports:
        raise MatrixUsageError(
            f"no report in {folder}: run draughts-conformance matrix --rules {played.name}"
        )
    if readme is None:
        sys.stdout.write(matrix_markdown(build_matrix(reports)))
    if args.site is not None:
        _write_site(args, load_corpus(CORPUS_ROOT), stored_reports(args.reports, names), names)
    missing = [name for name in names if not report_path(folder, name).is_file()]
    return INCOMPLETE if failed or missing else OK


def _write_site(
    args: argparse.Namespace, corpus: Corpus, reports: list[Report], names: Sequence[str]
) -> None:
    """The site of the stored reports of ``names``: the international ones, and those of every
    other built-in game stored in ``--reports``/GAME/, each on that game's pages."""
    from conformance.cli.docs import game_corpora
    from conformance.site.build import write_site

    games = game_corpora()
    others = [report for game in games for report in stored_reports(args.reports / game, names)]
    write_site(args.site, corpus, [*reports, *others], games)
    _say(f"wrote the site to {args.site}; open {args.site / 'index.html'}")


def report_path(folder: Path, name: str) -> Path:
    """``NAME.jsonl`` for a built-in engine; a file-safe form of any other spec."""
    return folder / f"{slug(name)}.jsonl"


def _refresh(
    name: str, args: argparse.Namespace, corpus: Corpus, played: RuleSet = INTERNATIONAL_SET
) -> str | None:
    """Install (unless told not to) and run one engine in the game ``played``, storing its report;
    what went wrong, or None."""
    if name in BUILTIN_ENGINES and not args.no_install:
        try:
            install(name, say=_say)
        except (InstallError, SelfInstallError) as error:
            return f"not installed: {getattr(error, 'message', error)}"
    try:
        report = run_engine(name, corpus, timeout=args.timeout, rule_set=played)
    except (EngineError, SpecError) as error:
        return f"did not start: {error}"
    folder = args.reports if played.is_default else args.reports / played.name
    write_reproducible(report, report_path(folder, name))
    _say(f"{name}: {report.certificate().summary()}")
    return None


def run_engine(
    spec: str, corpus: Corpus, *, timeout: float = DEFAULT_TIMEOUT, rule_set: RuleSet = INTERNATIONAL_SET
) -> Report:
    """One engine over the corpus (slow cases left out) of the game ``rule_set``, as ``run`` does it."""
    options = RunOptions()
    cases = select_cases(corpus, options)
    factory = engine_factory(spec, timeout=timeout, rule_set=rule_set)
    engine = factory()
    head = header(corpus, engine.info, options, cases, spec)
    results: list[Result] = []
    summary = run(cases, factory, options, results.append, engine=engine)
    return Report(head, results, summary.to_json())


def placeheld(text: str) -> str:
    """``text`` with this machine's engines folder written ``<engines>`` and the folder of the
    ``conformance`` package ``<repository>``."""
    return text.replace(str(engines_dir()), ENGINES_PLACEHOLDER).replace(
        str(REPOSITORY), REPOSITORY_PLACEHOLDER
    )


def write_reproducible(report: Report, path: Path) -> None:
    """The report as chained JSON lines (:mod:`conformance.core.chain`) without what changes from one
    run to the next: the start time, the timings, the engines folder of this machine and the folder
    the suite runs from."""
    head = {key: value for key, value in report.header.items() if key not in _CLOCK}
    engine = dict(head.get("engine", {}))
    if isinstance(engine.get("adapter"), str):
        engine["adapter"] = placeheld(engine["adapter"])
    head["engine"] = engine
    foot = {key: value for key, value in report.footer.items() if key not in _CLOCK}
    lines = [head]
    for result in report.results:
        record = result.to_json()
        record.pop("duration_ms", None)
        lines.append(record)
    lines.append(foot)
    chain = ChainWriter()  # chained as every report is: the chain of the same lines is the same
    text = "".join(chain.line(line) + "\n" for line in lines)
    with contextlib.suppress(FileNotFoundError):
        if path.read_text(encoding="utf-8") == text:
            return
    with atomic_text(path) as stream:
        stream.write(text)


def stored_reports(folder: Path, names: Sequence[str] = ()) -> list[Report]:
    """The stored reports of ``names`` (default: every built-in engine) that exist, in that order."""
    chosen = names or list(BUILTIN_ENGINES)
    return [read_report(path) for name in chosen if (path := report_path(folder, name)).is_file()]

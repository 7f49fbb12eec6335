"""pytest plugin: ``pytest --draughts-engine SPEC`` runs the corpus as ordinary test items.

Each case becomes one test item named by its id, grouped under the rule it checks (its
article, or the project's reading it rests on), so an engine's own CI runs the suite with its
usual runner (and ``--junitxml``).

**One verdict.** The first item to run asks every question of the items collected, through the
same runner as ``draughts-conformance run``, and the session takes its verdict from the same
certificate: each item then reports its case from those results --

* a case with a failure or error of its own (a *defect*, charged to the rule it breaks) fails;
* a case whose failures are all *blocked* (explained by a rule it relies on that the engine
  fails directly) is skipped, saying by which rule, as ``run`` and JUnit report it;
* a failure the baseline (``--draughts-baseline``) lists as known fails, saying so, unless
  ``--draughts-accept-known`` accepts the known failures (then it is an expected failure);
* a case with no question answered (declined, or outside the capabilities) is skipped.

At the end the terminal shows the defects (one line each), the blocked failures and the
certificate's one-line summary, as ``run`` does; a session pytest would end with 0 exits with the
certificate's status instead (:class:`conformance.core.certificate.ExitStatus`: 1 failed, 3 not
certified -- an engine that declines everything is never exit 0), and a failure pytest reports
itself (the engine's or another test's) is never hidden.

**The game.** ``--draughts-rules NAME|FILE`` (or ``draughts_rules`` in the ini file) certifies the
engine for another game of the family, as ``run --rules``: the game's own corpus
(``rulesets/cases/<name>/`` unless ``--draughts-corpus`` says otherwise), the engine started for
that game (protocol 1.2), and the certificate naming it (``CERTIFIED for russian``).

A bad ``--draughts-engine`` spec, rule set, corpus, baseline or ``--draughts-require`` is a usage error (one
``ERROR:`` line, exit status 4); an engine that does not start stops the session at the first
case with one line saying why (exit status 4), instead of failing every case.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.core.baseline import Baseline, BaselineError
from conformance.core.certificate import PROBLEMS
from conformance.core.corpus.load import CORPUS_ROOT, CorpusError, corpus_root_for, load_corpus
from conformance.core.corpus.model import Case, Corpus, article_sort_key
from conformance.core.errors import WrongAnswer
from conformance.core.protocol import Engine, EngineError
from conformance.core.results import Result, Status
from conformance.core.rule_sets import RuleSet, RuleSetError, rule_set
from conformance.core.safe_text import printable
from conformance.core.scopes import Requirement, RequirementError
from conformance.core.stream import Report
from conformance.engines.adapters.specs import DEFAULT_TIMEOUT, SpecError, engine_factory
from conformance.harness.evaluate import question_keys
from conformance.harness.runner import RunOptions, header, run, select_cases
from conformance.report.text import blocked_sentence, defects, headline

_ENGINE_KEY = pytest.StashKey[dict[str, Any]]()
_NO_ENGINE = pytest.ExitCode.USAGE_ERROR
"""The exit status when the engine does not start (as for a bad spec: the run could not begin)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("draughts-conformance", "FMJD conformance of a draughts engine")
    group.addoption("--draughts-engine", metavar="SPEC", help="run the corpus against this engine spec")
    group.addoption(
        "--draughts-rules",
        metavar="NAME|FILE",
        help="the game certified: international (default), brazilian, canadian, russian, pool, american, "
        "or a rules file (overrides the ini option draughts_rules)",
    )
    parser.addini("draughts_rules", "the game certified, as --draughts-rules", default=None)
    group.addoption(
        "--draughts-corpus",
        metavar="DIR",
        default=str(CORPUS_ROOT),
        help="corpus directory (default: the game's own corpus)",
    )
    group.addoption("--draughts-article", action="append", default=[], help="only this article")
    group.addoption("--draughts-case", action="append", default=[], help="only this case id")
    group.addoption("--draughts-slow", action="store_true", help="include cases tagged slow")
    group.addoption("--draughts-baseline", metavar="FILE", help="known failures (reported as known)")
    group.addoption(
        "--draughts-accept-known",
        action="store_true",
        help="the baseline's known failures become expected failures and do not fail the session",
    )
    group.addoption(
        "--draughts-force-baseline",
        action="store_true",
        help="use a baseline even when it lists more than a quarter of the questions",
    )
    group.addoption(
        "--draughts-require",
        action="append",
        default=[],
        metavar="RULE[:SCOPE]",
        help="what must be certified, as run --require (the session exits 3 when it is not)",
    )
    group.addoption("--draughts-timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per request")


class ArticleGroup(pytest.Collector):
    """The cases of one rule: an article, or one of the project's readings."""

    def collect(self) -> list[pytest.Item]:  # items are attached in pytest_collection_modifyitems
        return []


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.add_marker(pytest.mark.draughts_article(case.article))
        for required in case.requires:
            self.add_marker(pytest.mark.draughts_requires(required))

    def runtest(self) -> None:
        state = self.config.stash[_ENGINE_KEY]
        if state.get("report") is None:
            _run_all(state, self.session)
        report: Report = state["report"]
        results = state["by_case"].get(self.case.id, [])
        blocked = report.certificate().blocked
        bad = [r for r in results if r.status in PROBLEMS]
        own = [r for r in bad if r.charged_to or (r.case, r.question) not in blocked]
        new = [r for r in own if not r.baselined]
        known = [r for r in own if r.baselined]
        if new or (known and not state["accept_known"]):
            raise CaseFailed(self._details(new + known))
        if known:
            pytest.xfail("known failure (baseline, accepted): " + "; ".join(_line(r) for r in known))
        if bad:
            by = sorted({rule for r in bad for rule in blocked[(r.case, r.question)]})
            pytest.skip(f"blocked by {', '.join(by)} (failed directly): " + "; ".join(_line(r) for r in bad))
        if not any(r.status is Status.PASS for r in results):
            pytest.skip(
                printable("; ".join(f"[{r.question}] {r.status.value}: {r.message}" for r in results))
            )

    def _details(self, results: list[Result]) -> str:
        lines = [f"{self.case.id}: {self.case.description}", f"FEN {self.case.position}"]
        for result in results:
            rule = f" (art. {result.charged_to})" if result.charged_to else ""
            known = " (known: listed in the baseline)" if result.baselined else ""
            lines.append(f"[{result.question}] {result.status.value}{rule}{known}: {result.message}")
            lines.append(f"    expected: {result.expected}")
            if result.got is not None:
                lines.append(f"    got:      {result.got}")
        return printable("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.case.file), self.case.line, f"case {self.case.id}"


class CaseFailed(WrongAnswer):
    """A case's answer was wrong (or the engine broke); the message holds the details."""


def _line(result: Result) -> str:
    return printable(f"[{result.question}] {result.status.value}: {result.message}")


def _run_all(state: dict[str, Any], session: pytest.Session) -> None:
    """Ask every question of the collected cases (as ``run`` does) and keep the report."""
    engine = _start(state["factory"], state["spec"])
    cases = [item.case for item in session.items if isinstance(item, CaseItem)]
    options: RunOptions = state["options"]
    results: list[Result] = []
    summary = run(cases, state["factory"], options, results.append, engine=engine)
    head = header(state["corpus"], engine.info, options, cases, state["spec"])
    state["report"] = Report(head, results, summary.to_json())
    by_case: dict[str, list[Result]] = {}
    for result in results:
        by_case.setdefault(result.case, []).append(result)
    state["by_case"] = by_case


def _start(factory: Callable[[], Engine], spec: str) -> Engine:
    """The engine, started once for the session; if it cannot start, the session stops here with
    one line saying why (and the last line the engine wrote on stderr), not a failure per case."""
    try:
        return factory()
    except EngineError as error:
        said = error.stderr.strip().splitlines()[-1:] if error.stderr else []
        stderr = f" (its last line on stderr: {said[0]})" if said else ""
        reason = f"{error}{stderr}"
    except Exception as error:  # an in-process engine's constructor: its bug, said in one line
        reason = f"{type(error).__name__}: {error}"
    pytest.exit(f"--draughts-engine {spec!r}: the engine did not start: {reason}", returncode=_NO_ENGINE)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "draughts_article(article): the FMJD article a corpus case checks")
    config.addinivalue_line("markers", "draughts_requires(article): an article a corpus case relies on")


def _options(config: pytest.Config, corpus: Corpus) -> RunOptions:
    """The run's options from the command line (usage errors for a bad baseline or requirement)."""
    require = config.getoption("--draughts-require")
    try:
        for text in require:
            Requirement.parse(text)
    except RequirementError as error:
        raise pytest.UsageError(f"--draughts-require {error}") from None
    options = RunOptions(
        articles=config.getoption("--draughts-article"),
        ids=config.getoption("--draughts-case"),
        exclude_tags=() if config.getoption("--draughts-slow") else ("slow",),
        require=tuple(require),
        accept_known=config.getoption("--draughts-accept-known"),
    )
    path = config.getoption("--draughts-baseline")
    if path is None:
        if options.accept_known:
            raise pytest.UsageError("--draughts-accept-known needs --draughts-baseline FILE")
        return options
    questions = [(case.id, key) for case in select_cases(corpus, options) for key, _ in question_keys(case)]
    try:
        baseline = Baseline.load(path)
        force = config.getoption("--draughts-force-baseline")
        baseline.check_share(baseline.hidden(questions), len(questions), force=force)
    except BaselineError as error:
        raise pytest.UsageError(f"--draughts-baseline {path!r}: {error}") from None
    if baseline.deprecation():
        config.issue_config_time_warning(pytest.PytestWarning(baseline.deprecation()), stacklevel=2)
    return dataclasses.replace(options, baseline=baseline)


def _rule_set(config: pytest.Config) -> RuleSet:
    """The game of ``--draughts-rules`` or the ini's ``draughts_rules`` (international without
    either); a usage error naming the option for a bad name or rules file."""
    given = config.getoption("--draughts-rules")
    option = "--draughts-rules"
    if given is None:
        given, option = config.getini("draughts_rules") or None, "draughts_rules"
        if given is not None and config.inipath is not None and not Path(given).is_absolute():
            beside = config.inipath.parent / given  # a rules file named beside the ini file
            given = str(beside) if beside.is_file() else given
    try:
        return rule_set(given)
    except RuleSetError as error:
        raise pytest.UsageError(f"{option} {given!r}: {error}") from None


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    spec = config.getoption("--draughts-engine")
    if not spec:
        return
    played = _rule_set(config)
    corpus_path = config.getoption("--draughts-corpus")
    try:
        factory = engine_factory(spec, timeout=config.getoption("--draughts-timeout"), rule_set=played)
    except SpecError as error:
        raise pytest.UsageError(f"--draughts-engine {spec!r}: {error}") from None
    try:
        if corpus_path == str(CORPUS_ROOT):
            corpus_path = str(corpus_root_for(played))
        corpus = load_corpus(corpus_path, played)
    except CorpusError as error:
        raise pytest.UsageError(f"--draughts-corpus {corpus_path!r}: {error}") from None
    options = _options(config, corpus)
    config.stash[_ENGINE_KEY] = {
        "factory": factory,
        "spec": spec,
        "corpus": corpus,
        "options": options,
        "accept_known": options.accept_known,
        "report": None,
    }
    groups: dict[str, list[Case]] = {}
    for case in select_cases(corpus, options):
        groups.setdefault(case.judged_under, []).append(case)
    for rule in sorted(groups, key=lambda key: (key in corpus.readings, article_sort_key(key))):
        name = f"reading-{rule}" if rule in corpus.readings else f"art-{rule}"
        group = ArticleGroup.from_parent(session, name=name, nodeid=name)
        items.extend(CaseItem.from_parent(group, name=case.id, case=case) for case in groups[rule])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The certificate's exit status, when pytest itself would exit 0: a session that asked the
    engine is never green unless the certificate is (nor is a failure of other tests hidden)."""
    state = session.config.stash.get(_ENGINE_KEY, None)
    report = state.get("report") if state else None
    if report is not None and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = int(report.certificate().exit_status)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The defects, the blocked failures and the certificate's summary, as ``run`` prints them."""
    state = config.stash.get(_ENGINE_KEY, None)
    report: Report | None = state.get("report") if state else None
    if report is None:
        return
    certificate = report.certificate()
    found, blocked = defects(report, certificate)
    terminalreporter.section("draughts-conformance certificate")
    if found:
        terminalreporter.write_line(f"Defects ({len(found)} distinct):")
        for defect in found:
            counts = f"{len(defect.new)} new" + (f", {len(defect.known)} known" if defect.known else "")
            terminalreporter.write_line(
                printable(f"  {defect.rule}: {defect.what} ({counts}; seen in {', '.join(defect.touches)})")
            )
    if blocked:
        terminalreporter.write_line(printable(blocked_sentence(blocked, certificate)))
    unexpected = report.footer.get("unexpected_passes") or []
    if unexpected:
        terminalreporter.write_line(printable(f"{len(unexpected)} baselined question(s) now pass"))
    terminalreporter.write_line(headline(report, certificate))

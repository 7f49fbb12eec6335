"""pytest plugin: ``pytest --draughts-engine SPEC`` runs the corpus as ordinary test items.

Each case becomes one test item named by its id, grouped under the rule it checks (its
article, or the project's reading it rests on), so an
engine's own CI runs the suite with its usual runner (and ``--junitxml``). A case passes when
every question it asks passes; a question outside the engine's capabilities is not scored; a
case the baseline lists is an expected failure (``xfail``).

A bad ``--draughts-engine`` spec, corpus or baseline is a usage error (one ``ERROR:`` line, exit
status 4); an engine that does not start stops the session at the first case with one line saying
why (exit status 4), instead of failing every case.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.specs import DEFAULT_TIMEOUT, SpecError, engine_factory
from conformance.baseline import Baseline, BaselineError
from conformance.corpus.load import CORPUS_ROOT, CorpusError, load_corpus
from conformance.corpus.model import Case, article_sort_key
from conformance.engine import Engine, EngineError
from conformance.results import Status
from conformance.runner import RunOptions, run_case, select_cases

_ENGINE_KEY = pytest.StashKey[dict[str, Any]]()
_NO_ENGINE = pytest.ExitCode.USAGE_ERROR
"""The exit status when the engine does not start (as for a bad spec: the run could not begin)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("draughts-conformance", "FMJD conformance of a draughts engine")
    group.addoption("--draughts-engine", metavar="SPEC", help="run the corpus against this engine spec")
    group.addoption("--draughts-corpus", metavar="DIR", default=str(CORPUS_ROOT), help="corpus directory")
    group.addoption("--draughts-article", action="append", default=[], help="only this article")
    group.addoption("--draughts-case", action="append", default=[], help="only this case id")
    group.addoption("--draughts-slow", action="store_true", help="include cases tagged slow")
    group.addoption("--draughts-baseline", metavar="FILE", help="known failures (become xfail)")
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
        if state.get("engine") is None:
            state["engine"] = _start(state["factory"], state["spec"])
        engine: Engine = state["engine"]
        results = run_case(engine, self.case)
        baseline: Baseline | None = state["baseline"]
        bad = [r for r in results if r.status in (Status.FAIL, Status.ERROR)]
        if bad and baseline is not None and all(baseline.covers(r) for r in bad):
            pytest.xfail("known failure (baseline): " + "; ".join(f"[{r.question}] {r.message}" for r in bad))
        if bad:
            lines = [f"{self.case.id}: {self.case.description}", f"FEN {self.case.position}"]
            for result in bad:
                rule = f" (art. {result.charged_to})" if result.charged_to else ""
                lines.append(f"[{result.question}] {result.status.value}{rule}: {result.message}")
                lines.append(f"    expected: {result.expected}")
                if result.got is not None:
                    lines.append(f"    got:      {result.got}")
            raise CaseFailed("\n".join(lines))
        if not any(r.status is Status.PASS for r in results):
            pytest.skip("; ".join(f"[{r.question}] {r.status.value}: {r.message}" for r in results))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.case.file), self.case.line, f"case {self.case.id}"


class CaseFailed(Exception):
    """A case's answer was wrong (or the engine broke); the message holds the details."""


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


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    spec = config.getoption("--draughts-engine")
    if not spec:
        return
    baseline_path = config.getoption("--draughts-baseline")
    corpus_path = config.getoption("--draughts-corpus")
    try:
        factory = engine_factory(spec, timeout=config.getoption("--draughts-timeout"))
    except SpecError as error:
        raise pytest.UsageError(f"--draughts-engine {spec!r}: {error}") from None
    try:
        corpus = load_corpus(corpus_path)
    except CorpusError as error:
        raise pytest.UsageError(f"--draughts-corpus {corpus_path!r}: {error}") from None
    try:
        baseline = Baseline.load(baseline_path) if baseline_path else None
    except BaselineError as error:
        raise pytest.UsageError(f"--draughts-baseline {baseline_path!r}: {error}") from None
    options = RunOptions(
        articles=config.getoption("--draughts-article"),
        ids=config.getoption("--draughts-case"),
        exclude_tags=() if config.getoption("--draughts-slow") else ("slow",),
    )
    config.stash[_ENGINE_KEY] = {"factory": factory, "spec": spec, "engine": None, "baseline": baseline}
    groups: dict[str, list[Case]] = {}
    for case in select_cases(corpus, options):
        groups.setdefault(case.judged_under, []).append(case)
    for rule in sorted(groups, key=lambda key: (key in corpus.readings, article_sort_key(key))):
        name = f"reading-{rule}" if rule in corpus.readings else f"art-{rule}"
        group = ArticleGroup.from_parent(session, name=name, nodeid=name)
        items.extend(CaseItem.from_parent(group, name=case.id, case=case) for case in groups[rule])


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_ENGINE_KEY, None)
    if state and state.get("engine") is not None:
        state["engine"].close()

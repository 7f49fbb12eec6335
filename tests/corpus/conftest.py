"""The mutant kill matrix: filled by test_mutants.py, printed at the end of the run."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.corpus import article_sort_key

_KILL_MATRIX = pytest.StashKey[dict[str, Counter[str]]]()


@pytest.fixture
def kill_matrix(request: pytest.FixtureRequest) -> dict[str, Counter[str]]:
    """mutant name -> {article: cases of that article the mutant fails}."""
    return request.config.stash.setdefault(_KILL_MATRIX, {})


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    rows = config.stash.get(_KILL_MATRIX, {})
    if not rows:
        return
    articles = sorted({article for counts in rows.values() for article in counts}, key=article_sort_key)
    terminalreporter.section("mutant kill matrix: failing cases per article")
    width = max(len(name) for name in rows)
    terminalreporter.write_line(" " * width + " " + " ".join(f"{a:>5}" for a in articles))
    for name in sorted(rows):
        cells = " ".join(f"{rows[name].get(a, 0) or '.':>5}" for a in articles)
        terminalreporter.write_line(f"{name:<{width}} {cells}")

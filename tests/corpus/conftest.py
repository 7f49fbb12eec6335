"""The mutant kill matrix: filled by test_mutants.py, printed at the end of the run."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.corpus import article_sort_key

_KILL_MATRIX = pytest.StashKey[dict[str, Counter[str]]]()


@pytest.fixture
def kill_matrix(request: pytest.FixtureRequest) -> dict[str, Counter[str]]:
    """mutant name (with " (no counters)" for the run without the capability) -> {rule: failures}.

    A failure counts against the rule it is charged to: the case's article or reading, or the
    rule of a legal move the engine refused."""
    return request.config.stash.setdefault(_KILL_MATRIX, {})


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    rows = config.stash.get(_KILL_MATRIX, {})
    if not rows:
        return
    rules = sorted({rule for counts in rows.values() for rule in counts}, key=article_sort_key)
    articles = [rule for rule in rules if rule[0].isdigit() or rule in ("PDN", "Hub", "perft")]
    readings = [rule for rule in rules if rule not in articles]
    terminalreporter.section("mutant kill matrix: failing questions per rule charged")
    width = max(len(name) for name in rows)
    columns = articles + [f"r{index}" for index in range(1, len(readings) + 1)]
    terminalreporter.write_line(" " * width + " " + " ".join(f"{c:>5}" for c in columns))
    for name in sorted(rows):
        cells = " ".join(f"{rows[name].get(rule, 0) or '.':>5}" for rule in articles + readings)
        terminalreporter.write_line(f"{name:<{width}} {cells}")
    for index, reading in enumerate(readings, start=1):
        terminalreporter.write_line(f"  r{index} = reading {reading}")

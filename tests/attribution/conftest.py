"""The kill matrices of the attribution tests: filled by the tests, printed at the end of the run."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.core.corpus import article_sort_key

_MATRICES = pytest.StashKey[dict[str, dict[str, Counter[str]]]]()


@pytest.fixture
def kill_matrices(request: pytest.FixtureRequest) -> dict[str, dict[str, Counter[str]]]:
    """command (``run``, ``verify``...) -> engine -> {rule: unblocked failures filed there}."""
    return request.config.stash.setdefault(_MATRICES, {})


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    for command, rows in sorted(config.stash.get(_MATRICES, {}).items()):
        if not rows:
            continue
        rules = sorted({rule for counts in rows.values() for rule in counts}, key=article_sort_key)
        articles = [rule for rule in rules if rule[0].isdigit() or rule in ("PDN", "Hub", "perft")]
        readings = [rule for rule in rules if rule not in articles]
        terminalreporter.section(f"kill matrix ({command}): unblocked failures per rule they are filed under")
        width = max(len(name) for name in rows)
        columns = articles + [f"r{index}" for index in range(1, len(readings) + 1)]
        terminalreporter.write_line(" " * width + " " + " ".join(f"{c:>5}" for c in columns))
        for name in sorted(rows):
            cells = " ".join(f"{rows[name].get(rule, 0) or '.':>5}" for rule in articles + readings)
            terminalreporter.write_line(f"{name:<{width}} {cells}")
        for index, reading in enumerate(readings, start=1):
            terminalreporter.write_line(f"  r{index} = reading {reading}")

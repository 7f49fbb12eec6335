"""Project-wide pytest configuration: the opt-in ``slow`` marker, and xdist's groups honoured."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_configure(config: pytest.Config) -> None:
    """With ``-n`` and no ``--dist`` of its own, xdist's ``loadgroup`` rather than ``load``: the tests
    marked ``xdist_group("...")`` run in one worker, so a costly fixture or cache they share (the suite's
    clone and wheel, the default run's draw games) is built once, not once per worker; every other test is
    handed out one at a time as under ``load``. (Set here rather than in ``addopts``: ``--dist`` is
    unknown to a run with ``-p no:xdist``.)"""
    given = [*config.invocation_params.args, *os.environ.get("PYTEST_ADDOPTS", "").split()]
    chosen = any(arg == "--dist" or arg.startswith("--dist=") for arg in given)
    if getattr(config.option, "dist", None) == "load" and not chosen:
        config.option.dist = "loadgroup"

"""Broken engines of real engines' kinds, not in the gallery (tests/attribution/broken/, served over
JSON-lines like any engine): each is filed under exactly the rule it breaks, by ``run`` on the whole
corpus and by ``verify``.

* ``vanishing_king`` -- a king vanishes after a capture ending on its own start square (draughts.js
  0.2.1): the reading start-square-empty; its king captures are all right;
* ``lone_man_count`` -- the 6.3 and 6.4 counts applied against a lone man: endgame-lone-king-only;
* ``crowned_after_passing`` -- a man whose capture passed the far row crowned wherever it ends: 4.15.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from conformance.core.certificate import Certificate
from conformance.core.corpus import load_corpus
from conformance.engines.adapters.specs import engine_factory
from conformance.harness.runner import RunOptions, run, select_cases
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import verify

BROKEN = Path(__file__).parent / "broken"

BREAKS = {
    "vanishing_king": ("start-square-empty",),
    "lone_man_count": ("endgame-lone-king-only",),
    "crowned_after_passing": ("4.15",),
}

VERIFY_EXAMPLES = 60


def spec(name: str) -> str:
    return f"jsonl:{sys.executable} {BROKEN / name}.py"


def charged(certificate: Certificate) -> Counter[str]:
    return Counter(
        {row.key: row.failed + row.charged for row in certificate.rows if row.failed + row.charged}
    )


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_run_files_the_broken_engine_under_its_rule_only(
    name: str, kill_matrices: dict[str, dict[str, Counter[str]]]
) -> None:
    factory = engine_factory(spec(name), timeout=30)
    cases = select_cases(load_corpus(), RunOptions())
    summary = run(cases, factory, RunOptions(), lambda result: None)
    found = charged(summary.certificate)
    kill_matrices.setdefault("run, broken engines", {})[name] = found
    assert found, f"the corpus does not notice {name}"
    assert set(found) <= set(BREAKS[name]), dict(found)
    assert not [row.key for row in summary.certificate.rows if row.errored]


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_verify_files_the_broken_engine_under_its_rule_only(
    name: str, kill_matrices: dict[str, dict[str, Counter[str]]]
) -> None:
    found_run = verify(
        engine_factory(spec(name), timeout=30), VerifyOptions(examples=VERIFY_EXAMPLES, seed=0)
    )
    found = charged(found_run.summary.certificate)
    kill_matrices.setdefault(f"verify --examples {VERIFY_EXAMPLES}, broken engines", {})[name] = found
    assert set(found) <= set(BREAKS[name]), dict(found)

"""Bounded model checking of the draw bookkeeping (Art. 6, 7.2): every reading the project fixes
holds over all games up to a depth, and fails -- z3 finds a counterexample -- once flipped.

The default run checks the statements on :data:`SMALL` (the same rules with short counts) to 17
plies; ``--run-slow`` checks them on the real counts to 64 plies.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conformance.verify.draw_bmc import PROPERTIES, SMALL, Control, Property, prove
from conformance.verify.draw_events import PROJECT, DrawRules, EventError, outcomes

QUICK_DEPTH = 17
FULL_DEPTH = 64


def _replays(rules: DrawRules, control: Control, found: object) -> None:
    """A counterexample is a game of the flipped model: the plain-Python reading of its events
    gives the outcomes z3 gave (or, for the control that drops a fact of the game, refuses it)."""
    from conformance.verify.draw_bmc import Counterexample

    assert isinstance(found, Counterexample)
    flipped = control.flip(rules)
    if control.min_return_plies < 4:
        with pytest.raises(EventError, match="within 4 plies"):
            outcomes(found.start, list(found.events), flipped)
        return
    assert outcomes(found.start, list(found.events), flipped) == list(found.outcomes)


def _check(prop: Property, rules: DrawRules, depth: int) -> None:
    result = prove(prop, depth, rules)
    assert result.proved, f"{prop.name}: {result.counterexample}"
    assert result.witness_ply is not None, f"{prop.name}: vacuous to {depth} plies (no witness)"
    for control in prop.controls:
        flipped = prove(prop, depth, rules, control)
        assert not flipped.proved, f"{prop.name}: no counterexample with {control.name}"
        _replays(rules, control, flipped.counterexample)


@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.name for p in PROPERTIES])
def test_reading_holds_with_short_counts_and_fails_flipped(prop: Property) -> None:
    _check(prop, SMALL, QUICK_DEPTH)


@pytest.mark.slow
@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.name for p in PROPERTIES])
def test_reading_holds_to_64_plies_and_fails_flipped(prop: Property) -> None:
    _check(prop, PROJECT, FULL_DEPTH)


def test_the_model_is_written_without_the_oracle() -> None:
    code = (
        "import sys; import conformance.verify.draw_bmc, conformance.verify.draw_smt, "
        "conformance.verify.draw_events; print(sorted(m for m in sys.modules if m.startswith('oracle')))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_the_command_line_proves_and_names_what_it_does_not_know(capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.verify.draw_model import main

    assert main(["prove", "--small", "--depth", "6", "setup-3-no-progress-needs-kings"]) == 0
    out = capsys.readouterr().out
    assert "setup-3-no-progress-needs-kings (SetupError check 3): proved to 6 plies" in out
    assert "control 'a man move keeps the 6.2 count': counterexample at ply 1" in out
    assert main(["prove", "--depth", "3", "no-such-property"]) == 2
    assert "no property 'no-such-property'" in capsys.readouterr().err

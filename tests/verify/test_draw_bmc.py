"""Bounded model checking of the draw bookkeeping (Art. 6, 7.2): the machine proved against the
rules stated over the history, every reading holding over all games up to a depth and failing --
z3 finds a counterexample -- once flipped, every piece of the machine needed by some proof.

The default run checks the statements on :data:`SMALL` (the same readings with short counts) to 17
plies; ``--run-slow`` checks them on the real counts to 64 plies, and the full mutant x property
table.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import subprocess
import sys

import pytest

from conformance.core.draw_events import PROJECT, READING_ARTICLES, DrawRules, EventError, outcomes
from conformance.verify import draw_spec
from conformance.verify.draw_bmc import SMALL, Control, Counterexample, Property, prove
from conformance.verify.draw_machine import DrawMachine
from conformance.verify.draw_machine_mutants import MUTANTS
from conformance.verify.draw_mutation import score, table
from conformance.verify.draw_properties import PROPERTIES

QUICK_DEPTH = 17
FULL_DEPTH = 64


def _replays(rules: DrawRules, control: Control, found: Counterexample | None) -> None:
    """A counterexample is a game of the flipped model: the plain-Python reading of its events
    gives the outcomes z3 gave (or, for a control that drops a fact of the game, refuses it)."""
    assert isinstance(found, Counterexample)
    flipped = control.flip(rules)
    if control.min_return_plies < 4 or control.dropped:
        with pytest.raises(EventError):
            outcomes(found.start, list(found.events), flipped)
        return
    assert outcomes(found.start, list(found.events), flipped) == list(found.outcomes)


def _check(prop: Property, rules: DrawRules, depth: int) -> None:
    result = prove(prop, depth, rules)
    assert result.proved, f"{prop.name}: {result.counterexample}"
    assert not result.unwitnessed, f"{prop.name}: vacuous to {depth} plies: {result.unwitnessed}"
    for control in prop.controls:
        flipped = prove(prop, depth, rules, control, witnesses=False)
        assert not flipped.proved, f"{prop.name}: no counterexample with {control.name}"
        _replays(rules, control, flipped.counterexample)


@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.name for p in PROPERTIES])
def test_reading_holds_with_short_counts_and_fails_flipped(prop: Property) -> None:
    _check(prop, SMALL, QUICK_DEPTH)


@pytest.mark.slow
@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.name for p in PROPERTIES])
def test_reading_holds_to_64_plies_and_fails_flipped(prop: Property) -> None:
    _check(prop, PROJECT, FULL_DEPTH)


def test_every_reading_on_every_article_has_a_property_whose_control_flips_it() -> None:
    """'A property with control and witness for every reading and switch of Art. 6': each
    (reading, article) of the model is the control of a property stating that reading."""
    for reading, article in READING_ARTICLES:
        stating = [p for p in PROPERTIES if reading in p.reading]
        assert stating, f"no property states {reading}"
        controls = {c.name for p in stating for c in p.controls}
        assert f"{reading} read otherwise on {article}" in controls, (reading, article)
        witnessed = [w for p in stating for w in p.witnesses]
        assert witnessed, f"no witness for {reading}"


def test_the_switches_of_the_model_each_have_a_control() -> None:
    """Every field of the rules that is a switch of Art. 6 is flipped by some control."""
    flipped: set[str] = set()
    for control in (c for prop in PROPERTIES for c in prop.controls):
        changed = control.flip(SMALL)
        flipped |= {
            name for name in DrawRules.__dataclass_fields__ if getattr(changed, name) != getattr(SMALL, name)
        }
        for before, after in zip(SMALL.groups, changed.groups, strict=False):
            flipped |= {
                f"group.{name}"
                for name in before.__dataclass_fields__
                if getattr(before, name) != getattr(after, name)
            }
    fields = set(DrawRules.__dataclass_fields__) - {"groups"}
    group_fields = {f"group.{name}" for name in SMALL.groups[0].__dataclass_fields__} - {"group.article"}
    assert fields | group_fields <= flipped | {"groups"}, (fields | group_fields) - flipped


@pytest.mark.slow
def test_no_two_properties_state_the_same_thing() -> None:
    """Distinct formulas: for every two properties, some control or mutant of the machine breaks
    one and not the other (two properties refuted by exactly the same bugs would say the same)."""
    refuted: dict[str, set[str]] = {prop.name: set() for prop in PROPERTIES}
    bugs = [(f"control {c.name}", None, c) for p in PROPERTIES for c in p.controls]
    bugs += [(f"mutant {m.name}", m.machine, None) for m in MUTANTS]
    for prop in PROPERTIES:
        for name, machine, control in bugs:
            result = prove(prop, 11, SMALL, control, machine=machine or DrawMachine, witnesses=False)
            if not result.proved:
                refuted[prop.name].add(name)
    for one, other in itertools.combinations(PROPERTIES, 2):
        assert refuted[one.name] != refuted[other.name], (one.name, other.name)


def test_the_statements_follow_the_counts_they_are_proved_with() -> None:
    """``--small`` is honest: the text of a statement proved with short counts names them."""
    for prop in PROPERTIES:
        assert prop.statement(SMALL) != prop.statement(PROJECT) or "32" not in prop.statement(PROJECT), (
            prop.name
        )
    by_name = {p.name: p for p in PROPERTIES}
    assert "last 10 plies (5 moves each)" in by_name["6.3-count-from-arising"].statement(SMALL)
    assert "last 32 plies (16 moves each)" in by_name["6.3-count-from-arising"].statement(PROJECT)


def test_the_spec_shares_nothing_with_the_machine() -> None:
    """The statements read the trace through helpers of their own, never the machine's pieces."""
    tree = ast.parse(inspect.getsource(draw_spec))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"__future__", "conformance.core.draw_events", "conformance.verify.draw_smt"}
    names = {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    assert names.isdisjoint(DrawMachine.PIECES)
    helpers = {name for name, _ in inspect.getmembers(draw_spec.Spec, inspect.isfunction)}
    assert all(getattr(draw_spec.Spec, name).__module__ == draw_spec.__name__ for name in helpers)
    with pytest.raises(ValueError, match="project's readings"):
        draw_spec.Spec(object(), PROJECT.read_otherwise("endgame-no-restart", "6.3"))  # type: ignore[arg-type]


def test_every_piece_of_the_machine_broken_fails_a_proof(capsys: pytest.CaptureFixture[str]) -> None:
    """The mutation score of the proofs: each mutant of the machine is killed by some property
    with a counterexample (its intended property asked first); the table is printed."""
    assert {m.piece for m in MUTANTS} == set(DrawMachine.PIECES)
    found = score(QUICK_DEPTH)
    with capsys.disabled():
        print("\n" + "\n".join(table(found)))
    assert found.survivors == []
    assert found.killed == len(MUTANTS)


@pytest.mark.slow
def test_the_full_mutant_by_property_table(capsys: pytest.CaptureFixture[str]) -> None:
    found = score(QUICK_DEPTH, full=True)
    with capsys.disabled():
        print("\n" + "\n".join(table(found)))
    assert found.survivors == []


def test_the_model_is_written_without_the_oracle() -> None:
    modules = "conformance.verify.draw_bmc, conformance.verify.draw_smt, conformance.core.draw_events, "
    modules += (
        "conformance.verify.draw_machine, conformance.verify.draw_spec, conformance.verify.draw_mutation, "
    )
    modules += "conformance.verify.draw_properties"
    code = f"import sys; import {modules}; print(sorted(m for m in sys.modules if m.startswith('oracle')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_the_command_line_proves_and_names_what_it_does_not_know(capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.verify.draw_model import main

    assert main(["prove", "--small", "--depth", "6", "6.2-count-from-history"]) == 0
    out = capsys.readouterr().out
    assert "short counts: 6.2 8 moves each, 6.3 5, 6.4 4" in out
    assert "6.2-count-from-history (the 6.2 count, as a player counts it): proved to 6 plies" in out
    assert "control 'a man move keeps the 6.2 count': counterexample at ply 1" in out
    assert main(["prove", "--depth", "3", "no-such-property"]) == 2
    assert "no property 'no-such-property'" in capsys.readouterr().err
    assert main(["mutate", "--depth", "9"]) in (0, 1)
    assert "mutants (counterexample ply" in capsys.readouterr().out

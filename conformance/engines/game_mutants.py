"""The mutant gallery per rule set: the games each mutant plays, and the one rule it breaks in each.

A mutant breaks one rule, so it means something only in a game where that rule holds: a mutant
whose captures are a free choice breaks FMJD 4.13 in international draughts and means nothing in
Russian draughts, where free choice *is* the rule (fsr 1.5.14). Each switch mutant therefore flips
one switch of the game it is started for, away from that game's own value, and declares (protocol
1.2, ``rule_sets``) exactly the games where the flipped value is wrong **and** the game's corpus
asks a question that tells the two values apart: in every game it declares, ``run mutant:NAME
--rules GAME`` is FAILED under that game's citation of the switch, and under nothing else
(tests/attribution/test_game_gallery.py). A game whose corpus cannot tell is not declared (the run
is then ``unsupported``, never a certificate for a broken engine); :data:`UNCAUGHT` lists those.

The international gallery (:data:`conformance.engines.mutants.MUTANTS`, filed by
:data:`~conformance.engines.mutants.BREAKS`) is unchanged; :data:`GAME_MUTANTS` adds the mutants
that break the other games' own switches the other way (maximum capture under Russian, Pool and
American, a crowned man that stops under Russian, men capturing backward under American), which
international draughts does not have.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

from conformance.core.rule_sets import DEFAULT
from conformance.engines.oracle_engine import OracleEngine
from oracle.rules import CaptureChoice, MidCaptureCrowning, Rules
from oracle.ruleset import builtin

SWITCHES: Final[dict[str, Mapping[str, object]]] = {
    # the international gallery's switch mutants, in the other games that share the switch's value
    "men-capture-forward-only": {"men_capture_backward": False},
    "short-kings": {"flying_kings": False},
    "free-capture-choice": {"capture_choice": CaptureChoice.FREE},
    "crowned-mid-capture": {"mid_capture_crowning": MidCaptureCrowning.CONTINUES},
    # the other games' own switches, broken the other way
    "maximum-capture-choice": {"capture_choice": CaptureChoice.MAXIMUM},
    "crowning-stops-capture": {"mid_capture_crowning": MidCaptureCrowning.STOPS},
    "men-capture-backward": {"men_capture_backward": True},
}
"""Each switch mutant: the fields of :class:`~oracle.rules.Rules` it sets in the game it plays."""

GAME_MUTANTS: Final = ("maximum-capture-choice", "crowning-stops-capture", "men-capture-backward")
"""The mutants that play no international game: they break another game's own switch."""

GAME_BREAKS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    # mutant: {game: the rule it breaks there, as the game's corpus cites it}
    "men-capture-forward-only": {
        "brazilian": ("fmjd:4.1",),
        "canadian": ("fmjd:4.1",),
        "russian": ("fsr:1.5.3",),
        "pool": ("rules-of-play:4",),
    },
    "short-kings": {
        "brazilian": ("fmjd:3.9", "fmjd:4.3"),
        "canadian": ("fmjd:3.9", "fmjd:4.3"),
        "russian": ("fsr:1.4.5",),
        "pool": ("apca:15",),
    },
    "free-capture-choice": {"brazilian": ("fmjd:4.13",), "canadian": ("fmjd:4.13",)},
    "crowned-mid-capture": {
        "brazilian": ("fmjd:4.15",),
        "canadian": ("fmjd:4.15",),
        "pool": ("rules-of-play:5",),
        "american": ("acf:1.19",),
    },
    "maximum-capture-choice": {"russian": ("fsr:1.5.14",), "pool": ("apca:20",), "american": ("acf:1.20",)},
    "crowning-stops-capture": {
        "brazilian": ("fmjd:4.15",),
        "canadian": ("fmjd:4.15",),
        "russian": ("fsr:1.5.15",),
        "pool": ("rules-of-play:5",),
    },
    "men-capture-backward": {"american": ("acf:1.18",)},
}
"""The games other than international each mutant plays, and the rule it breaks in each."""

UNCAUGHT: Final[dict[str, dict[str, str]]] = {}
"""Games where a mutant is meaningful but not declared, and what its run there shows: the game's
corpus has no case of the rule it breaks (a corpus gap, docs/rulesets.md). None today: the last
ones (men capturing backward and flying kings in Brazilian, Canadian, Russian and Pool) got cases
of their own. Kings that fly under American are not in the gallery: they would fail under
acf:1.17 and under the draw, capture and board articles, whose cases do not require acf:1.17."""


def declared(name: str, *, international: bool) -> frozenset[str]:
    """The rule sets the mutant ``name`` plays (``international``: it is of the international gallery)."""
    games = set(GAME_BREAKS.get(name, {}))
    if international:
        games.add(DEFAULT)
    return frozenset(games)


def switch_mutant(name: str, game: str, rules: Rules | None = None) -> OracleEngine:
    """The switch mutant ``name`` playing ``game`` (a built-in rule set it declares): that game's
    rules with the mutant's switch flipped."""
    base = rules if rules is not None else builtin(game)
    mutated = dataclasses.replace(base, **SWITCHES[name])  # type: ignore[arg-type]
    return OracleEngine(mutated, name=name, rule_sets=declared(name, international=name not in GAME_MUTANTS))

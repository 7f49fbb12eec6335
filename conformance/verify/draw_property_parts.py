"""The pieces the properties of the draw model are made of: texts, negative controls, shared conditions.

A :class:`~conformance.verify.draw_bmc.Property` of :mod:`conformance.verify.draw_properties` states
its rule in words (:func:`statement_text`: the counts of the rules it is proved under filled in),
checks that it can fail with negative controls (:func:`reading_controls`: a reading read the other
way on each article it reads; :func:`offset_control`, :func:`replaced_control`,
:func:`move_fewer_control`: a switch flipped), and some share conditions over the history
(:func:`against_lone_man`, :func:`irreversible_inside`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final

import z3

from conformance.core.draw_events import DrawRules
from conformance.verify.draw_bmc import Control
from conformance.verify.draw_spec import Spec

__all__ = [
    "GROUPS",
    "against_lone_man",
    "irreversible_inside",
    "move_fewer_control",
    "offset_control",
    "read_otherwise",
    "reading_controls",
    "replaced_control",
    "statement_text",
]

GROUPS: Final = ("6.3", "6.4")


def _counts(rules: DrawRules) -> dict[str, int]:
    """The counts of ``rules`` by name, for the statements' text: plies and moves each."""
    found = {"occ": rules.repetition_draw or 0}
    if rules.no_progress_moves is not None:
        found |= {"np": 2 * rules.no_progress_moves, "np_moves": rules.no_progress_moves}
    for g in rules.groups:
        key = g.article.replace(".", "")
        found |= {f"g{key}": g.plies, f"g{key}_moves": g.moves_each}
    return found


def statement_text(template: str) -> Callable[[DrawRules], str]:
    return lambda rules: template.format(**_counts(rules))


def read_otherwise(reading: str, article: str) -> Control:
    return Control(
        f"{reading} read otherwise on {article}", lambda rules: rules.read_otherwise(reading, article)
    )


def reading_controls(reading: str, *articles: str) -> tuple[Control, ...]:
    """One control per article: ``reading`` read the other way on that article only."""
    return tuple(read_otherwise(reading, a) for a in articles)


def offset_control(article: str, plies: int) -> Control:
    name = f"{article} {'one ply early' if plies < 0 else 'one ply late'}"
    return Control(name, lambda rules: dataclasses.replace(rules, limit_offsets=((article, plies),)))


def replaced_control(name: str, **changes: object) -> Control:
    return Control(name, lambda rules: dataclasses.replace(rules, **changes))  # type: ignore[arg-type]


def move_fewer_control(article: str) -> Control:
    def flip(rules: DrawRules) -> DrawRules:
        return rules.with_group(article, moves_each=rules.group_named(article).moves_each - 1)

    return Control(f"{article} a move each fewer", flip)


def against_lone_man(spec: Spec, t: int, article: str) -> z3.BoolRef:
    """A side is a lone man, the other has material of one of the group's endings."""
    g = next(g for g in spec.rules.groups if g.article == article)
    options = []
    for strong in (True, False):
        sk, sm = spec.kings_and_men(t, strong)
        wk, wm = spec.kings_and_men(t, not strong)
        lone = z3.And(wk == 0, wm == 1)
        options += [z3.And(lone, sk == e.kings, sm == e.men) for e in g.endings]
    return z3.Or(options)


def irreversible_inside(spec: Spec, t: int, plies: int) -> z3.BoolRef:
    """A man move, promotion or capture among the last ``plies`` plies."""
    return z3.Or([z3.Not(spec.king_move(k)) for k in range(max(1, t - plies + 1), t + 1)])

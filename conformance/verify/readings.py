"""``verify --kind readings``: the shortest games that tell two readings of Art. 6 apart.

    draughts-conformance verify --kind readings                      # all 30, flying kings allowed
    draughts-conformance verify --kind readings --steps-only 6.4-four-moves endgame-lone-piece
    draughts-conformance verify --kind readings --yaml repetition-on-second
    draughts-conformance verify --kind readings --write-cases proposed/ --steps-only

Unlike the other kinds, this mode asks no engine and generates no positions: for each switch of
the rule configuration and each reading of Art. 6 (:data:`~conformance.verify.draw_readings.READINGS`)
it synthesises a game with z3 and the move generator
(:func:`~conformance.verify.draw_synthesis.synthesise`), replays it with the oracle under the
project's reading and under the other one, and prints the game (FEN and moves), both outcomes and
the replay's confirmation. ``--yaml`` prints a proposed corpus case for each game, ``--write-cases
DIR`` writes one case file per reading; the expected outcome in them is left TODO, to be worked out
by hand from docs/rules.md (docs/cases.md); :func:`case_yaml` writes such a case, filed under the
one article the game is about. ``python -m conformance.verify.draw_model readings`` runs the same
code. (This module imports z3 through the synthesis: the command line imports it when the mode runs.)
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from conformance.core.certificate import ExitStatus
from conformance.core.corpus.write import TODO, CaseDraft, written
from conformance.core.corpus.write import case_file_yaml as write_case_file
from conformance.core.corpus.write import case_yaml as write_case
from conformance.core.errors import UsageError
from conformance.verify.draw_readings import READINGS
from conformance.verify.draw_synthesis import (
    DistinguishingGame,
    SynthesisError,
    outcome_text,
    synthesise,
)

OK, FAILED, USAGE = ExitStatus.OK, ExitStatus.FAILED, ExitStatus.USAGE


@dataclasses.dataclass(frozen=True)
class ReadingsOptions:
    """What ``verify --kind readings`` was asked for."""

    names: tuple[str, ...] = ()
    """Readings to synthesise a game for (default: all of READINGS, in order)."""
    steps_only: bool = False
    """Games of one-square king steps, man moves and one-square captures only."""
    seed: int = 0
    yaml: bool = False
    """Print a proposed corpus case after each game."""
    write_cases: Path | None = None
    """Write a proposed case file per reading into this directory."""


class UnknownReadingError(UsageError, KeyError):
    """A reading name that is not in READINGS."""


def check_names(names: Sequence[str]) -> None:
    """Raise :class:`UnknownReadingError` naming every unknown reading and the known ones."""
    unknown = [name for name in names if name not in READINGS]
    if unknown:
        raise UnknownReadingError(
            f"no reading {', '.join(repr(n) for n in unknown)}; known: {', '.join(READINGS)}"
        )


def case_file_yaml(draft: CaseDraft, name: str) -> str:
    """A whole proposed case file around one proposed case (:func:`case_draft`)."""
    reading = READINGS[name]
    return write_case_file(
        [draft],
        topic=f"A game that tells the project's reading from {name} ({reading.concerns})",
        article=reading.articles[0],
        comments=(
            f"Proposed by draughts-conformance verify --kind readings {name}: work the outcome out by",
            "hand (docs/rules.md), write the derivation in the case's notes, then move the case into a",
            "file of cases/ (docs/cases.md). Until then this file is no corpus file: its TODOs fail the schema.",
        ),
    )


def run_readings(options: ReadingsOptions, out: IO[str] | None = None) -> int:
    """Synthesise, confirm and print a game per reading; 0 when every reading got one, 1 when a
    synthesis failed (said on its line), 2 on an unknown name or an unwritable directory."""
    stream = out or sys.stdout
    try:
        check_names(options.names)
    except UnknownReadingError as error:
        print(f"draughts-conformance: {error.args[0]}", file=sys.stderr)
        return USAGE
    if options.write_cases is not None:
        try:
            options.write_cases.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(
                f"draughts-conformance: cannot write cases into {options.write_cases}: {error}",
                file=sys.stderr,
            )
            return USAGE
    names = options.names or tuple(READINGS)
    kind = "one-square king steps and man moves only" if options.steps_only else "flying kings allowed"
    print(f"readings: {len(names)} reading(s) of Art. 6, seed {options.seed}, {kind}", file=stream)
    failed = 0
    for name in names:
        began = time.perf_counter()
        try:
            game = synthesise(name, steps_only=options.steps_only, seed=options.seed)
        except SynthesisError as error:
            failed += 1
            print(f"{name}: NOT FOUND: {error}", file=stream, flush=True)
            continue
        print(f"{game}  [{time.perf_counter() - began:.1f}s]", file=stream)
        print(
            "  confirmed: replayed with the oracle under both readings, both go on to the last ply "
            "and end as above",
            file=stream,
            flush=True,
        )
        if options.yaml or options.write_cases is not None:
            draft = case_draft(game)
            if options.yaml:
                print(write_case(draft), file=stream)
            if options.write_cases is not None:
                path = options.write_cases / f"{name}{'-steps' if options.steps_only else ''}.yaml"
                try:
                    path.write_text(case_file_yaml(draft, name), encoding="utf-8")
                except OSError as error:
                    print(f"draughts-conformance: cannot write {path}: {error}", file=sys.stderr)
                    return USAGE
                print(f"  proposed case written to {path}", file=stream)
    summary = f"readings: {len(names) - failed} of {len(names)} told apart by a confirmed game"
    print(summary + (f"; {failed} not found" if failed else ""), file=stream)
    return FAILED if failed else OK


def case_article(game: DistinguishingGame) -> str:
    """The one article a case of ``game`` is filed under: of the reading's articles, the rule
    that ends the game under the project's reading, else under the other one, else the first."""
    articles = READINGS[game.reading].articles
    for outcome in (game.ours, game.theirs):
        if outcome["rule"] in articles:
            return str(outcome["rule"])
    return articles[0]


def case_draft(game: DistinguishingGame) -> CaseDraft:
    """A proposed corpus case; its expected outcome is left TODO, to be worked out by hand from
    the rules."""
    reading = READINGS[game.reading]
    article = case_article(game)
    steps = " --steps-only" if game.steps_only else ""
    slug = game.reading.removeprefix(f"{article}-").replace(".", "-")
    return CaseDraft(
        id=f"{article}-synth-{slug}{'-steps' if game.steps_only else ''}",
        article=article,
        requires=(article,) if reading.reading else (),  # a reading's case relies on its article
        reading=reading.reading,
        source=f"synthesised by `draughts-conformance verify --kind readings{steps} {game.reading}`, "
        f"seed {game.seed}; outcome worked by hand",
        notes="TODO: the derivation, ply by ply",
        position=game.fen,
        counters=dict(game.counters),
        expect={"outcome": {"moves": list(game.moves), "result": TODO, "rule": TODO, "ply": TODO}},
        comments=(
            f"Synthesised: the project's reading ends this game {outcome_text(game.ours)}, the reading",
            f"{game.reading} ({reading.concerns}) ends it {outcome_text(game.theirs)}.",
            "TODO: work out the outcome by hand from the rules (rules.md), write the derivation in notes,",
            "then remove these TODO lines; the description too.",
        ),
    )


case_yaml = written(case_draft)
"""A proposed corpus case (YAML, indented for a file's ``cases:`` list); its outcome is left TODO."""

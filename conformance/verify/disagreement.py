"""A failing verify row made small: its position shrunk, its disagreement described.

:func:`shrink_row` shrinks the failing row's position (:func:`~conformance.verify.shrink.shrink_position`:
remove pieces one at a time, turn kings into men, while the same check still reports the same kind
of finding; a draw game: :func:`shrink_game`, its shortest disagreeing prefix) and describes the
minimal position (:class:`~conformance.verify.casefile.Disagreement`): FEN, board, expected vs got,
and a case for ``cases/`` whose expectation is marked ``TODO: work out by hand`` -- suggested from
the SMT enumeration (or the rules' arithmetic), never from the oracle.
"""

from __future__ import annotations

from conformance.core.filing.layers import suggested
from conformance.core.filing.registry import readings
from conformance.verify.asking import EngineFailed, NotApplicable
from conformance.verify.casefile import Disagreement, case_yaml
from conformance.verify.driver import Driver, Row
from conformance.verify.generate import Generated
from conformance.verify.judgement import DRAWS
from conformance.verify.registry import check_named
from conformance.verify.shrink import Shrunk, shrink_position
from oracle.position import Position


def shrink_row(driver: Driver, generated: Generated, row: Row) -> Disagreement:
    """Shrink the failing ``row``'s position, keeping its check and finding kind."""
    assert row.judgement is not None
    assert row.judgement.kind is not None
    kind = row.judgement.kind
    subject = row.judgement.subject
    function = check_named(row.check).judge(driver.checks)
    if row.check == DRAWS:
        return shrink_game(driver, generated, row)

    def fails(candidate: Position) -> bool:
        driver.checks.forget()
        return kind in {f.kind for f in function(candidate, subject).findings}

    shrunk = shrink_position(generated.position, fails)
    driver.checks.forget()
    try:
        judgement = function(shrunk.position, subject)
    except Exception:  # cannot happen for a kept candidate unless the engine is erratic
        judgement = row.judgement
        shrunk = Shrunk(generated.position, shrunk.tries, False)
    if not judgement.findings:
        judgement, shrunk = row.judgement, Shrunk(generated.position, shrunk.tries, False)
    rules: tuple[str, ...] = ()
    case_rules: tuple[str, ...] | None = None
    reading = None
    text = ""  # another game: no case for cases/ (the case writer knows FMJD's articles only)
    if not driver.rule_set.is_default:  # its own filing, by the small position's evidence
        rules = (driver.filer.game_filing(row.check, shrunk.position, judgement),)
    elif check_named(row.check).filed_by_shrunk_position:  # the small position's own evidence
        article, requires = driver.filer.filing(row.check, shrunk.position, judgement)
        rules = (article, *requires)
        case_article, case_requires, reading = suggested(article, requires, readings())
        case_rules = (case_article, *case_requires)
    if driver.rule_set.is_default:
        text = case_yaml(
            row.check,
            kind,
            judgement,
            shrunk.position,
            generated.seed,
            driver.options.z3_timeout_ms,
            articles=case_rules,
            reading=reading,
        )
    return Disagreement(
        generated.case,
        row.check,
        kind,
        generated.seed,
        generated.position,
        shrunk,
        judgement,
        text,
        filed_under=rules,
    )


def shrink_game(driver: Driver, generated: Generated, row: Row) -> Disagreement:
    """The shortest prefix of a draw game that still disagrees: the prefixes shorter than the
    failing one, from the longest down, until one agrees (the asked prefixes before it agreed)."""
    assert row.judgement is not None
    assert row.judgement.kind is not None
    judgement = row.judgement
    moves: tuple[str, ...] = judgement.subject
    tries = 0
    for length in range(len(moves) - 1, -1, -1):
        tries += 1
        driver.checks.forget()
        try:
            shorter = driver.checks.draws(generated.position, moves[:length])
        except (EngineFailed, NotApplicable):
            break
        if not shorter.findings:
            break
        judgement = shorter
    shrunk = Shrunk(generated.position, tries, True)
    text = case_yaml(
        DRAWS,
        judgement.findings[0].kind,
        judgement,
        generated.position,
        generated.seed,
        driver.options.z3_timeout_ms,
    )
    return Disagreement(
        generated.case,
        DRAWS,
        judgement.findings[0].kind,
        generated.seed,
        generated.position,
        shrunk,
        judgement,
        text,
    )

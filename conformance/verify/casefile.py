"""A disagreement described for people: the minimal position, expected vs got, and a case for
``cases/`` whose expectation is marked to be worked out by hand (suggested from z3, never from the
oracle)."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from conformance.core.corpus.load import CORPUS_ROOT
from conformance.core.corpus.write import AFTER_SUGGESTION, TODO, TODO_HEADER, CaseDraft, written
from conformance.verify.after import position_after
from conformance.verify.capture_formula import VerifyError
from conformance.verify.findings import FindingKind, MoveKey, move_text
from conformance.verify.judgement import (
    AFTER_CHECKS,
    DRAWS,
    OUTCOME_CHECKS,
    Judgement,
    legal_move_articles,
    z3_facts,
)
from conformance.verify.registry import check_named
from conformance.verify.shrink import Shrunk
from conformance.verify.smt import CaptureSolver
from oracle.position import Color, Position


@functools.cache
def article_summaries() -> Mapping[str, str]:
    """Article -> our one-line summary, from cases/articles.yaml (empty when it cannot be read)."""
    try:
        import yaml

        data = yaml.safe_load((CORPUS_ROOT / "articles.yaml").read_text(encoding="utf-8"))
        return {str(article): str(text) for article, text in data.get("articles", {}).items()}
    except Exception:  # the summaries only decorate reports
        return {}


@functools.cache
def reading_names() -> frozenset[str]:
    """The readings of cases/articles.yaml (empty when it cannot be read)."""
    try:
        import yaml

        data = yaml.safe_load((CORPUS_ROOT / "articles.yaml").read_text(encoding="utf-8"))
        return frozenset(str(name) for name in data.get("readings", {}))
    except Exception:  # the names only decorate reports
        return frozenset()


def _registry() -> frozenset[str]:
    return frozenset(article_summaries())


def _case_articles(articles: Iterable[str]) -> list[str]:
    """The articles (and readings, for ``requires``) of cases/articles.yaml among ``articles``."""
    registry = _registry()
    return [a for a in articles if not registry or a in registry or a in reading_names()]


def _folder(article: str) -> str:
    head = article.split(".")[0]
    matches = sorted(path.name for path in CORPUS_ROOT.glob(f"{head}-*") if path.is_dir())
    return f"cases/{matches[0]}/" if matches else "cases/"


@dataclasses.dataclass(frozen=True)
class Disagreement:
    """A check that failed, shrunk to a minimal position, with a case ready to paste into ``cases/``."""

    case: str
    check: str
    kind: FindingKind
    seed: int
    original: Position
    shrunk: Shrunk
    judgement: Judgement
    """The check's judgement on the shrunk position (findings, expected vs got)."""
    case_yaml: str
    filed_under: tuple[str, ...] = ()
    """The rule a legal-move disagreement is filed under, then the rules it relies on (the
    driver's filing); empty: the findings' own rules."""

    @property
    def position(self) -> Position:
        return self.shrunk.position

    def text(self) -> str:
        """FEN, board, findings, expected vs got, and the case: plain text for a terminal or a file."""
        position = self.position
        pieces = sum(position.count(color) for color in Color)
        before = sum(self.original.count(color) for color in Color)
        minimal = "" if self.shrunk.minimal else " (not minimal: the shrinker ran out of tries)"
        label = check_named(self.check).source
        if self.filed_under:
            article, *requires = self.filed_under
            rules = _rule_names([article]) + (f", relying on {_rule_names(requires)}" if requires else "")
        else:
            rules = _rule_names(
                self.judgement.articles if self.check in OUTCOME_CHECKS else self.kind.articles
            )
        if self.check == DRAWS:  # a steered game: shrunk to its shortest disagreeing prefix
            shrunk = (
                f"draw game from {position.fen()} ({pieces} pieces), shrunk to its shortest disagreeing "
                f"prefix, {len(self.judgement.subject)} plies ({self.shrunk.tries} shorter ones asked):"
            )
        else:
            shrunk = (
                f"generated position {self.original.fen()} ({before} pieces), shrunk in {self.shrunk.tries} "
                f"tries to {pieces} pieces{minimal}:"
            )
        lines = [
            f"== disagreement: {self.case} {self.check}: {self.kind.value} ({rules})",
            shrunk,
            f"FEN {position.fen()}",
            position.diagram(),
        ]
        if self.judgement.subject is not None:
            subject = self.judgement.subject
            what = move_text(subject) if self.check in AFTER_CHECKS else " ".join(subject) or "(no move)"
            lines.append(f"played: {what}")
        lines += [f"  {finding}" for finding in self.judgement.findings]
        expected = f"expected ({label}):"
        lines.append(f"{expected} {_as_text(self.judgement.expected)}")
        lines.append(f"{'got (engine):':{len(expected)}} {_as_text(self.judgement.got)}")
        if not self.case_yaml:  # another game: the case writer knows FMJD's articles only
            lines.append("no ready-to-paste case in another game: write it by hand in rulesets/cases/<game>/")
            return "\n".join(lines)
        case = yaml_id_article(self.case_yaml)
        folder = _folder(case) if case else "cases/"
        lines.append(f"ready-to-paste case for {folder} (work its expectation out by hand first):")
        lines.append(self.case_yaml)
        return "\n".join(lines)


def _rule_names(rules: Sequence[str]) -> str:
    """``Art. 6.3``, or ``reading win-beats-draw`` for a reading of cases/articles.yaml."""
    return ", ".join(f"reading {r}" if r in reading_names() else f"Art. {r}" for r in rules)


def yaml_id_article(case: str) -> str | None:
    """The article in a generated case's id (``verify-<article>-<hash>``), or None."""
    for line in case.splitlines():
        text = line.strip()
        if text.startswith("- id: verify-"):
            article = text.removeprefix("- id: verify-").rsplit("-", 1)[0]
            return None if article == "x" else article
    return None


def _as_text(value: Any) -> str:
    if value is None:
        return "-"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def case_draft(
    check: str,
    kind: FindingKind,
    judgement: Judgement,
    position: Position,
    seed: int,
    timeout_ms: int,
    *,
    articles: Sequence[str] | None = None,
    reading: str | None = None,
) -> CaseDraft:
    """A case for ``cases/`` with a TODO expectation.

    ``articles``, when given, are the case's ``article`` then its ``requires`` (the rule the
    driver filed the disagreement under, then the rules it relies on, as
    :func:`conformance.core.filing.layers.suggested` makes a case of them), with ``reading`` when the
    filing is one of the project's readings.

    The suggested expectation never comes from the oracle: legal moves from the SMT enumeration
    (the proved maximum and every capture taking it) or, without a capture, the men's steps and
    kings' slides of :func:`~conformance.verify.checks.quiet_moves`; a position after a move
    from the rules' arithmetic (:func:`~conformance.verify.after.position_after`); an outcome
    is left entirely to the author.
    """
    if articles is not None and kind is not FindingKind.DUPLICATE:
        articles = _case_articles(articles)
    elif kind is FindingKind.DUPLICATE:  # a move listed twice: Art. 8, as the corpus files it
        articles, reading = ["8"], "move-identity"
    elif kind in (FindingKind.SYMMETRY, FindingKind.MALFORMED):  # about the legal moves as a whole
        articles = _case_articles(legal_move_articles(position))
    elif check in OUTCOME_CHECKS and judgement.articles and judgement.articles[0] in reading_names():
        # filed under a reading: the case is about the rules the outcomes name, read that way
        reading = judgement.articles[0]
        named = [str(o.get("rule")) for o in (judgement.expected or {}, judgement.got or {}) if o.get("rule")]
        articles = _case_articles(dict.fromkeys(named))
    else:
        articles = _case_articles(judgement.articles or kind.articles)
    digest = hashlib.sha256(f"{check} {position.fen()} {judgement.subject!r}".encode()).hexdigest()[:8]
    expect: dict[str, Any]
    suggestion: tuple[str, ...] = ()
    if check in AFTER_CHECKS:
        key: MoveKey = judgement.subject
        short = f"{key[0]}{'x' if key[2] else '-'}{key[1]}"  # PDN; the route is needed if ambiguous
        text = (judgement.expected or {}).get("moves", [short])[0]
        expect = {"after": [{"moves": [text], "position": position_after(position, key).fen()}]}
        suggestion = AFTER_SUGGESTION
    elif check in OUTCOME_CHECKS:
        moves: Sequence[str] = judgement.subject
        expect = {"outcome": {"moves": list(moves), "result": TODO, "rule": TODO, "ply": TODO}}
        suggestion = (
            "TODO: work out by hand (docs/rules.md, Art. 6 and 7): the result, the deciding rule, the ply.",
        )
    else:
        suggestion, suggested = suggested_moves(position, timeout_ms)
        expect = {"legal_moves": suggested}
    return CaseDraft(
        id=f"verify-{articles[0] if articles else 'x'}-{digest}",
        article=articles[0] if articles else None,
        requires=tuple(articles[1:]),
        reading=reading,
        source=f"found by draughts-conformance verify (seed {seed})",
        position=position.fen(),
        expect=expect,
        comments=(
            f"Found by draughts-conformance verify (seed {seed}), check {check}: {kind.value}.",
            *TODO_HEADER,
        ),
        expect_comments=suggestion,
    )


case_yaml = written(case_draft)
"""A case for ``cases/`` (YAML, indented for a file's ``cases:`` list) with a TODO expectation."""


def suggested_moves(position: Position, timeout_ms: int) -> tuple[tuple[str, ...], list[str]]:
    """A legal_moves expectation suggested by z3 (never by the oracle): the comment lines over it,
    with their TODO, and the moves."""
    solver = CaptureSolver(position, timeout_ms)
    try:
        facts = z3_facts(solver)
    except VerifyError as error:
        return (f"TODO: work out by hand (z3 gave no answer: {error})",), []
    if solver.can_capture:
        comment = (
            f"TODO: work out by hand. Suggested by z3, not by the oracle: the most any capture takes is"
            f" {facts['maximum']}",
            f"(a capture of {facts['maximum']} exists, none of {facts['maximum'] + 1}), and these are every"
            " capture taking that many.",
        )
    else:
        comment = (
            "TODO: work out by hand. Suggested: no capture exists (the verifier's jump table is empty), so",
            "the men's steps and the kings' slides (conformance.verify.checks.quiet_moves), not the oracle.",
        )
    return comment, list(facts["moves"])

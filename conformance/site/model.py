"""What the documentation shows, gathered from the corpus and from saved run reports.

The site is built from a :class:`Site`: every article of the registry (and any other article a
case or a report cites), every reading, every case with its questions and expected answers, and
one :class:`EngineRun` per report with its results indexed by (case, question). Reports are
the canonical JSON-lines files, so a site can be built from reports alone (the cases are then
rebuilt from the results, which carry each case's position and expected answers) or from the
corpus alone (no engine column).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from conformance.core.certificate import Certificate, Row
from conformance.core.corpus.model import Case, Corpus, Question, Reading, article_sort_key
from conformance.core.filing.registry import readings as filing_readings
from conformance.core.results import Result, Status
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet, from_header
from conformance.core.stream import Report
from conformance.core.summary import KEEP, Summary
from conformance.harness.evaluate import expectation_json, question_keys
from conformance.report.text import Defect, blocked_by, defects, result_word
from oracle.rules import INTERNATIONAL, Rules
from oracle.ruleset import builtin

NOT_IN_CORPUS = "Cases found only in reports (not in this corpus)"

LEVELS: Mapping[str, str] = {
    "rules": "rules: the engine answers rule questions (legal moves, positions, outcomes, notation)",
    "move-choice": "move-choice: the engine only chooses moves (Hub, DXP); certified that every move it "
    "chooses is legal, and the only legal move where there is one",
}


@dataclasses.dataclass(frozen=True)
class QuestionView:
    """One question of a case: its key in reports (``legal_moves``, ``after[0]``), kind, answer."""

    key: str
    kind: str
    expected: Any
    """The expected answer as the reports write it (:func:`conformance.harness.evaluate.expectation_json`)."""
    question: Question | None = None
    """The corpus question, when the case comes from the corpus (it may say more, e.g. a reason)."""


@dataclasses.dataclass(frozen=True)
class CaseView:
    id: str
    articles: tuple[str, ...]
    description: str
    source: str
    position: str
    questions: tuple[QuestionView, ...]
    topic: str
    where: str = ""
    counters: Mapping[str, int] = dataclasses.field(default_factory=dict)
    reading: str | None = None
    reading_note: str | None = None
    tags: tuple[str, ...] = ()
    in_corpus: bool = True
    rules: Rules = INTERNATIONAL
    """The game the case is played in: its position is read and drawn on that game's board."""

    @property
    def primary_article(self) -> str:
        return self.articles[0] if self.articles else "?"


@dataclasses.dataclass(frozen=True)
class EngineRun:
    """One report: an engine's results, by (case id, question key)."""

    slug: str
    report: Report
    results: Mapping[tuple[str, str], Result]

    @property
    def engine(self) -> Mapping[str, Any]:
        engine = self.report.header.get("engine", {})
        return engine if isinstance(engine, dict) else {}

    @property
    def name(self) -> str:
        return str(self.engine.get("name", "engine"))

    @property
    def version(self) -> str:
        return str(self.engine.get("version", ""))

    @property
    def title(self) -> str:
        return f"{self.name} {self.version}".strip()

    @property
    def level(self) -> str:
        return str(self.engine.get("level", "rules"))

    def for_article(self, article: str) -> list[Result]:
        """The results filed under ``article`` (or reading), and failures elsewhere charged to it."""
        return [r for r in self.report.results if r.judged_under == article or r.charged_to == article]

    @functools.cached_property
    def certificate(self) -> Certificate:
        return self.report.certificate()

    @functools.cached_property
    def defects(self) -> tuple[list[Defect], list[Result]]:
        """The distinct defects (most frequent first) and the blocked failures, as the terminal lists them."""
        return defects(self.report, self.certificate)

    def word(self, result: Result) -> str:
        """How the result counts: pass, fail, error, known, blocked, skip or unsupported."""
        return result_word(result, self.certificate)

    def blocked_by(self, result: Result) -> tuple[str, ...]:
        return blocked_by(result, self.certificate)

    def row(self, rule: str) -> Row | None:
        """The certificate's row for an article or reading (None when no result concerns it)."""
        return next((row for row in self.certificate.rows if row.key == rule), None)


@dataclasses.dataclass(frozen=True)
class GameEntry:
    """Another game of the family on the index: its pages are in the folder of its name."""

    name: str
    title: str
    board: int
    cases: int
    engines: tuple[str, ...]
    """The titles of the engines whose runs of the game the site shows."""

    @property
    def index(self) -> str:
        return f"{self.name}/index.html"


@dataclasses.dataclass(frozen=True)
class Site:
    articles: Mapping[str, str]
    """Every article shown, in order: number -> our summary ("" when the registry lacks it)."""
    readings: Mapping[str, Reading]
    cases: tuple[CaseView, ...]
    engines: tuple[EngineRun, ...]
    corpus_digest: str = ""
    game: RuleSet = INTERNATIONAL_SET
    """The game of the site's corpus and reports (docs --out DIR writes one site per game)."""
    family: tuple[GameEntry, ...] = ()
    """The other games' sites, listed on the index (the international site's)."""
    home: str = ""
    """The link back to the international site's index, for the site of another game."""
    unlisted: Summary = dataclasses.field(default_factory=Summary)
    """The campaign positions the reports were read without (summarised): counted, never listed
    (counted once per report that has them)."""

    def cases_of(self, article: str) -> list[CaseView]:
        return [case for case in self.cases if article in case.articles]

    def case_count(self, article: str | None = None) -> int:
        """How many cases there are (citing ``article``), those counted and not listed included."""
        listed = len(self.cases) if article is None else len(self.cases_of(article))
        return listed + self.unlisted.positions(article)

    def unlisted_of(self, article: str | None = None) -> tuple[int, int]:
        """The positions counted and not listed (citing ``article``), and how many got a wrong answer."""
        return self.unlisted.positions(article), self.unlisted.positions(article, wrong=True)

    def readings_of(self, article: str) -> list[Reading]:
        return [reading for reading in self.readings.values() if article in reading.articles]

    def case(self, case_id: str) -> CaseView | None:
        return self._by_id.get(case_id)

    @functools.cached_property
    def _by_id(self) -> dict[str, CaseView]:
        """The cases by id (looked up per result drawn: a campaign has hundreds of thousands)."""
        return {case.id: case for case in self.cases}


MAX_EXTRA_CASES: Final = KEEP
"""The most cases that only reports have (a campaign's generated positions) one list of a page
shows: those with a wrong answer first; a note counts the rest (the JSON report has every one).
A report read summarised keeps as many in full (:data:`conformance.core.summary.KEEP`)."""


def shown_cases(
    cases: Sequence[CaseView], runs: Sequence[EngineRun], unlisted: tuple[int, int] = (0, 0)
) -> tuple[list[CaseView], str]:
    """The cases of a list a page shows, in order, and the note counting those left out ("" when
    none is): every corpus case, and at most :data:`MAX_EXTRA_CASES` of the others, the ones an
    engine answered wrong first (a campaign of 10**6 positions must not make a page of each).
    ``unlisted``: the positions of the list counted but not kept (:meth:`Site.unlisted_of`), and
    how many of them got a wrong answer: never shown, counted in the note."""
    extra = [case for case in cases if not case.in_corpus]
    if len(extra) + unlisted[0] <= MAX_EXTRA_CASES:
        return list(cases), ""

    def wrong(case: CaseView) -> bool:
        return any(
            (result := run.results.get((case.id, question.key))) is not None
            and result.status in (Status.FAIL, Status.ERROR)
            for run in runs
            for question in case.questions
        )

    wrongs = [case.id for case in extra if wrong(case)]
    first = set(wrongs[:MAX_EXTRA_CASES])
    others = (case.id for case in extra if case.id not in first)
    kept = first | set(itertools.islice(others, MAX_EXTRA_CASES - len(first)))
    more, more_wrong = len(extra) + unlisted[0] - len(kept), len(wrongs) + unlisted[1] - len(first)
    note = (
        f"{more:,} more case(s) of the reports are not listed here "
        f"({more_wrong:,} of them with a wrong answer): "
        f"{MAX_EXTRA_CASES} are, those with a wrong answer first; the JSON report has every result"
    )
    return [case for case in cases if case.in_corpus or case.id in kept], note


def slug(text: str) -> str:
    """A file-name-safe form of ``text``: letters, digits, dots and dashes."""
    cleaned = re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-.")
    return cleaned or "x"


MAX_NAME: Final = 60
"""The most characters of a name (an engine's, an article's) in a file name; a longer one is cut
and gets a digest of itself (a report's names may be of any length: ``File name too long``)."""


def file_name_part(text: str, *, digest_unsafe: bool = False) -> str:
    """``text`` as part of a file name: :func:`slug`, cut to :data:`MAX_NAME` characters with a
    short digest of ``text`` when it is longer (or, with ``digest_unsafe``, when the slug differs
    from ``text``), so that two names never share a file."""
    safe = slug(text)
    if len(safe) > MAX_NAME or (digest_unsafe and safe != text):
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        safe = f"{safe[:MAX_NAME].rstrip('-.')}-{digest}"
    return safe


def article_file(article: str) -> str:
    """The page of an article: ``4.13`` -> ``art-4.13.html``, ``PDN`` -> ``art-PDN.html``.

    A name that is not already file-safe (it comes from a report: anything) gets a short digest
    of itself, so two names never share a page (``art-4.13/`` and ``art-4.13 `` both slug alike).
    """
    return f"art-{file_name_part(article, digest_unsafe=True)}.html"


def engine_file(run: EngineRun) -> str:
    return f"eng-{run.slug}.html"


def question_kind(key: str) -> str:
    """``after[0]`` -> ``after``."""
    return key.split("[", 1)[0]


def _case_view(case: Case, rules: Rules) -> CaseView:
    return CaseView(
        rules=rules,
        id=case.id,
        articles=case.articles,
        description=case.description,
        source=case.source,
        position=case.position,
        questions=tuple(
            QuestionView(key, question.kind, expectation_json(question), question)
            for key, question in question_keys(case)
        ),
        topic=case.topic,
        where=case.where,
        counters=dict(case.counters),
        reading=case.interpretation.reading if case.interpretation else None,
        reading_note=case.interpretation.note if case.interpretation else None,
        tags=case.tags,
    )


def build_model(corpus: Corpus | None, reports: Sequence[Report]) -> Site:
    """Gather a :class:`Site`: the corpus's cases first, then any case or question only reports have."""
    game = _game(corpus, reports)
    cases: dict[str, CaseView] = {}
    if corpus is not None:
        cases = {case.id: _case_view(case, game.rules) for case in corpus.cases}
    extra: dict[str, dict[str, Any]] = {}
    unlisted = Summary()
    for report in reports:
        summary = report.summary
        if summary is not None:
            unlisted.unlisted.update(summary.unlisted)
        for result in report.results:
            if summary is not None and not summary.listed(result.case):
                continue  # a position counted, its failures kept without their drawing
            known = cases.get(result.case)
            if known is not None and any(q.key == result.question for q in known.questions):
                continue
            entry = extra.setdefault(
                result.case, {"articles": result.articles, "position": result.position, "questions": {}}
            )
            entry["questions"].setdefault(result.question, result.expected)
    for case_id, entry in extra.items():
        added = tuple(
            QuestionView(key, question_kind(key), expected) for key, expected in entry["questions"].items()
        )
        known = cases.get(case_id)
        if known is not None:
            cases[case_id] = dataclasses.replace(known, questions=known.questions + added)
        else:
            cases[case_id] = CaseView(
                id=case_id,
                articles=tuple(entry["articles"]),
                description="",
                source="",
                position=str(entry["position"]),
                questions=added,
                topic=NOT_IN_CORPUS,
                in_corpus=False,
                rules=game.rules,
            )

    summaries = dict(corpus.articles) if corpus is not None else {}
    named = set(corpus.readings) if corpus is not None else set(filing_readings())
    cited = {article for case in cases.values() for article in case.articles if article not in named}
    articles = {
        article: summaries.get(article, "")
        for article in sorted(set(summaries) | cited, key=article_sort_key)
    }

    runs: list[EngineRun] = []
    used: set[str] = set()
    for report in reports:
        engine = report.header.get("engine", {})
        base = file_name_part(f"{engine.get('name', 'engine')}-{engine.get('version', '')}".lower())
        name, number = base, 1
        while name in used:
            number += 1
            name = f"{base}-{number}"
        used.add(name)
        results = {(result.case, result.question): result for result in report.results}
        runs.append(EngineRun(name, report, results))

    return Site(
        articles=articles,
        readings=dict(corpus.readings) if corpus is not None else {},
        cases=tuple(cases.values()),
        engines=tuple(runs),
        corpus_digest=corpus.digest if corpus is not None else "",
        unlisted=unlisted,
        game=game,
    )


def game_title(game: RuleSet) -> str:
    """How the pages name the game: "International draughts", "Russian draughts (8x8)"..."""
    if game.is_default:
        return "International draughts"
    if game.is_builtin:  # a report's header carries the switches, not the title
        return builtin(game.name).title or game.name
    return game.rules.title or game.name


def _game(corpus: Corpus | None, reports: Sequence[Report]) -> RuleSet:
    """The game of the site: its corpus's, else the first report's (international by default)."""
    if corpus is not None:
        return corpus.rule_set
    return from_header(reports[0].header) if reports else INTERNATIONAL_SET

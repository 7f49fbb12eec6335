"""Baselines: the known failures of an engine, each by its signature, so that a changed failure is new.

A baseline is a YAML (or JSON) file, written by ``--write-baseline`` from a real run::

    engine: py-draughts          # informative
    format: 2
    known:
      - case: 6.4-king-against-king
        question: outcome
        status: fail
        defect: wrong outcome            # what went wrong, as the report says
        answer: 1f0c2a9be4d07c31         # digest of the engine's answer (sha256 of its JSON, cut)
        note: K v K not counted          # for the reader

An entry matches a failure or error of its question only when the failure is *this* one: the same
status, defect and answer. A baseline written from one wrong engine therefore does not pass
another that fails the same questions differently, and a known failure that changes is a new one.

Entries of the old format (``case`` and optionally ``question``, no signature) are still read, with
a deprecation warning (:attr:`Baseline.legacy`): they match any failure of the question.

A baseline marks failures *known*: they are reported apart, and still fail their rule and the run,
unless the user accepts them (``--accept-known``). A baseline may hide at most
:data:`MAX_HIDDEN_SHARE` of a run's questions (:meth:`Baseline.check_share`; ``--force-baseline``
overrides): one listing the whole corpus certifies nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import yaml

from conformance import __version__
from conformance.core.errors import UsageError
from conformance.core.results import Result, Status
from conformance.core.safe_yaml import YamlError, load_yaml

FORMAT: Final = 2
"""The baseline format written: entries carry the failure's signature."""

MAX_HIDDEN_SHARE: Final = 0.25
"""The most of a run's questions (of a ``verify`` run's positions) a baseline may list, unless forced."""

Signature = tuple[str, str, str]
"""What identifies a failure: its status, its defect, the digest of the engine's answer."""


class BaselineError(UsageError, ValueError):
    """The baseline file is malformed, or hides too much of the run."""


def answer_digest(got: Any) -> str:
    """A short digest of an engine's answer (``got``): equal answers, equal digests."""
    text = json.dumps(got, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def signature(result: Result) -> Signature:
    return (result.status.value, result.defect, answer_digest(result.got))


@dataclasses.dataclass(frozen=True)
class Baseline:
    entries: frozenset[tuple[str, str | None]]
    """Every (case, question) listed; question None: the whole case (old format only)."""
    signatures: dict[tuple[str, str | None], frozenset[Signature]] = dataclasses.field(default_factory=dict)
    """The signatures listed for each (case, question); an entry without one is in the old format."""
    source: str = ""

    @property
    def legacy(self) -> int:
        """How many entries are in the old format (no signature: they match any failure)."""
        return sum(1 for entry in self.entries if entry not in self.signatures)

    def deprecation(self) -> str:
        """The warning to print for old-format entries ('' when there are none)."""
        if not self.legacy:
            return ""
        return (
            f"warning: {self.source}: {self.legacy} entr{'y' if self.legacy == 1 else 'ies'} in the old baseline "
            "format (case and question only) match any failure of their question, so a changed failure stays "
            "hidden; this format is deprecated: regenerate the file with --write-baseline"
        )

    @classmethod
    def load(cls, path: Path | str) -> Baseline:
        path = Path(path)
        try:
            data, _ = load_yaml(path, str(path))
        except YamlError as error:
            message = str(error)
            if "cannot read" in message:
                raise BaselineError(
                    message.replace("cannot read the file", "cannot read the baseline")
                ) from None
            raise BaselineError(f"{message} (not valid YAML/JSON for a baseline)") from None
        known = data.get("known") if isinstance(data, dict) else None
        if not isinstance(known, list):
            raise BaselineError(f"{path}: expected a mapping with a 'known' list of {{case, question}}")
        entries: set[tuple[str, str | None]] = set()
        signatures: dict[tuple[str, str | None], set[Signature]] = {}
        for index, entry in enumerate(known):
            if not isinstance(entry, dict) or not isinstance(entry.get("case"), str):
                raise BaselineError(f"{path}: known[{index}] needs a 'case' id")
            question = entry.get("question")
            if question is not None and not isinstance(question, str):
                raise BaselineError(f"{path}: known[{index}]: 'question' must be text")
            key = (entry["case"], question)
            entries.add(key)
            signed = [name for name in ("status", "defect", "answer") if name in entry]
            if not signed:
                continue
            if question is None or len(signed) < 3 or not all(isinstance(entry[n], str) for n in signed):
                raise BaselineError(
                    f"{path}: known[{index}]: a signed entry needs 'question', and 'status', 'defect' and "
                    "'answer' as text (as --write-baseline writes them)"
                )
            signatures.setdefault(key, set()).add((entry["status"], entry["defect"], entry["answer"]))
        frozen = {key: frozenset(found) for key, found in signatures.items()}
        return cls(frozenset(entries), frozen, str(path))

    @classmethod
    def from_results(cls, results: Iterable[Result], engine: str = "", version: str = "") -> str:
        """A baseline (YAML text) listing every failure and error of a run, each by its signature,
        after a comment saying what wrote it."""
        results = list(results)
        known = [
            {
                "case": r.case,
                "question": r.question,
                "status": r.status.value,
                "defect": r.defect,
                "answer": answer_digest(r.got),
                "note": r.message[:120],
            }
            for r in results
            if r.status in (Status.FAIL, Status.ERROR)
        ]
        data = {"engine": engine, "format": FORMAT, "known": known}
        comment = (
            f"# Known failures of {f'{engine} {version}'.strip() or 'an engine'}: {len(known)} of "
            f"{len(results)} questions, written by draughts-conformance {__version__} --write-baseline.\n"
            "# Each entry is one failure by its signature (status, defect, digest of the engine's answer):\n"
            "# a failure that changes is new. Regenerate the file rather than edit it.\n"
        )
        return comment + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)

    def _keys_of(self, case: str, question: str) -> list[tuple[str, str | None]]:
        return [key for key in ((case, None), (case, question)) if key in self.entries]

    def _keys(self, result: Result) -> list[tuple[str, str | None]]:
        return self._keys_of(result.case, result.question)

    def covers(self, result: Result) -> bool:
        """True when the baseline lists the result's question (whatever the failure it lists)."""
        return bool(self._keys(result))

    def knows(self, result: Result) -> bool:
        """True when the baseline lists this very failure: its signature, or (old format) its question."""
        for key in self._keys(result):
            listed = self.signatures.get(key)
            if listed is None or signature(result) in listed:
                return True
        return False

    def apply(self, result: Result) -> Result:
        """The result marked known when the baseline lists this failure; a failure of a listed question
        that is not the one listed stays new, and says so."""
        if result.status not in (Status.FAIL, Status.ERROR) or not self.covers(result):
            return result
        if self.knows(result):
            return dataclasses.replace(result, baselined=True)
        listed = sorted(s for key in self._keys(result) for s in self.signatures.get(key, ()))
        was = "; ".join(f"{status}: {defect or '?'}" for status, defect, _ in listed)
        note = f" (a new failure: the baseline lists another one for this question: {was})"
        return dataclasses.replace(result, message=result.message + note)

    @property
    def cases(self) -> frozenset[str]:
        """The cases the baseline names."""
        return frozenset(case for case, _ in self.entries)

    def hidden(self, questions: Iterable[tuple[str, str]]) -> int:
        """How many of ``questions`` (case, question) the baseline lists."""
        return sum(1 for case, question in questions if self._keys_of(case, question))

    def check_share(self, hidden: int, total: int, *, force: bool = False, what: str = "questions") -> None:
        """BaselineError when the baseline lists ``hidden`` of a run's ``total`` questions (or positions),
        more than :data:`MAX_HIDDEN_SHARE` of them, and is not ``force``d."""
        if total and hidden / total > MAX_HIDDEN_SHARE and not force:
            raise BaselineError(
                f"{self.source}: the baseline lists {hidden} of the {total} {what} of this run "
                f"({hidden / total:.0%}), more than the {MAX_HIDDEN_SHARE:.0%} a baseline may hide: "
                "fix the engine first, or pass --force-baseline to use it anyway"
            )

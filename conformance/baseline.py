"""Baselines: the known failures of an engine, so that its CI fails only on regressions.

A baseline is a YAML (or JSON) file::

    engine: py-draughts          # informative
    known:
      - case: 6.4-king-against-king
        question: outcome        # optional: every question of the case when absent
        note: K v K not counted  # optional, for the reader

A failure or error the baseline lists is reported but does not fail the run; a listed
question that passes is reported as an *unexpected pass* (the baseline can shrink).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

import yaml

from conformance.results import Result, Status
from conformance.safe_yaml import YamlError, load_yaml


class BaselineError(ValueError):
    """The baseline file is malformed."""


@dataclasses.dataclass(frozen=True)
class Baseline:
    entries: frozenset[tuple[str, str | None]]
    source: str = ""

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
        entries = set()
        for index, entry in enumerate(known):
            if not isinstance(entry, dict) or not isinstance(entry.get("case"), str):
                raise BaselineError(f"{path}: known[{index}] needs a 'case' id")
            question = entry.get("question")
            if question is not None and not isinstance(question, str):
                raise BaselineError(f"{path}: known[{index}]: 'question' must be text")
            entries.add((entry["case"], question))
        return cls(frozenset(entries), str(path))

    @classmethod
    def from_results(cls, results: Iterable[Result], engine: str = "") -> str:
        """A baseline (YAML text) listing every failure and error of a run."""
        known = [
            {"case": r.case, "question": r.question, "note": r.message[:120]}
            for r in results
            if r.status in (Status.FAIL, Status.ERROR)
        ]
        return yaml.safe_dump({"engine": engine, "known": known}, sort_keys=False, allow_unicode=True)

    def covers(self, result: Result) -> bool:
        return (result.case, None) in self.entries or (result.case, result.question) in self.entries

    def apply(self, result: Result) -> Result:
        if result.status in (Status.FAIL, Status.ERROR) and self.covers(result):
            return dataclasses.replace(result, baselined=True)
        return result

"""The rule set a run plays, as the harness carries it: by name, as the full object, and digested.

The oracle reads a rule set (:mod:`oracle.ruleset`: a built-in name or a rules file); this module
is what the harness keeps of it. A run's :class:`RuleSet` travels in the report header (the name,
the full object in the shape of a rules file, and the digest of that object), in the protocol's
``start`` message, and in the certificate ("CERTIFIED for russian"). International draughts is the
default everywhere: a report of an international run has no ``rules`` block (its absence means
international), so that reports written before rule sets read as they did.

An engine declares the rule sets it plays (:attr:`conformance.core.protocol.EngineInfo.rule_sets`,
international only unless it says more; ``*`` for any rule set, as the oracle); a question of a
rule set the engine does not declare is ``unsupported``, never asked (:func:`plays`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.resources
import json
from collections.abc import Mapping, Set
from pathlib import Path
from typing import Any, Final

from conformance.core.errors import UsageError
from oracle.errors import RulesError
from oracle.rules import INTERNATIONAL, Rules
from oracle.ruleset import BUILTIN, builtin, describe, load_rules, rules_from_data

DEFAULT: Final = "international"
"""The rule set of a run that names none, and of an engine that declares none."""

ANY: Final = "*"
"""Declared by an engine that plays every rule set it is given (the oracle)."""


class RuleSetError(UsageError, ValueError):
    """A ``--rules`` argument that names no rule set, or a rules file that cannot be read."""


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """The rule set of a run: the oracle's :class:`~oracle.rules.Rules` and how reports name it."""

    rules: Rules = INTERNATIONAL

    @property
    def name(self) -> str:
        return self.rules.name if self.rules is not INTERNATIONAL else DEFAULT

    @property
    def is_default(self) -> bool:
        """International draughts: reports, messages and corpus exactly as before rule sets."""
        return self.name == DEFAULT and self.rules == INTERNATIONAL

    @property
    def is_builtin(self) -> bool:
        """A built-in set exactly as shipped (a rules file may reuse a built-in name and differ)."""
        return self.name in BUILTIN and self.rules == builtin(self.name)

    @property
    def object(self) -> dict[str, Any]:
        """Every switch, in the shape of a rules file (:func:`oracle.ruleset.describe`), with the
        PDN ``gameType`` where the set has one (its notation letter says how the game's PDN names
        squares: ``A``, algebraic, for Russian and Brazilian)."""
        described = describe(self.rules)
        if self.rules.game_type is not None:
            described["gameType"] = self.rules.game_type
        return described

    @property
    def capture_article(self) -> str | None:
        """The article of a built-in set that makes capturing compulsory in its game, as its rules
        file cites ``captureChoice`` (``acf:1.20``, ``fsr:1.5.14``): where a quiet move listed
        beside a compulsory capture is filed. None for a rules file of a user's own."""
        if not self.is_builtin or self.is_default:
            return None
        return _capture_citation(self.name)

    @property
    def digest(self) -> str:
        """sha256 of the object written canonically: two runs of one rule set have one digest."""
        text = json.dumps(self.object, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def to_json(self) -> dict[str, Any]:
        """The header's ``rules`` block and the ``start`` message's ``rules``."""
        return {"name": self.name, "object": self.object, "digest": self.digest}


INTERNATIONAL_SET: Final = RuleSet()


@functools.cache
def _capture_citation(name: str) -> str | None:
    import yaml  # the harness's dependency; the oracle reads its files the same way

    text = (importlib.resources.files("oracle") / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8")
    citation = (yaml.safe_load(text).get("cite") or {}).get("captureChoice") or {}
    article = citation.get("article")
    article = article[0] if isinstance(article, list) and article else article
    source = citation.get("source")
    return f"{source}:{article}" if isinstance(article, str) and isinstance(source, str) else None


def rule_set(spec: str | Path | None) -> RuleSet:
    """The rule set a ``--rules`` argument names (a built-in name or a rules file; None: international).

    :class:`RuleSetError` with the oracle's one-line message for a bad name or file."""
    if spec is None:
        return INTERNATIONAL_SET
    try:
        rules = load_rules(spec)
    except RulesError as error:
        raise RuleSetError(str(error)) from None
    if rules.name == DEFAULT and rules == INTERNATIONAL:
        return INTERNATIONAL_SET
    return RuleSet(rules)


def name_of(header: Mapping[str, Any]) -> str:
    """The name of the rule set a report's header records (international when it records none)."""
    block = header.get("rules")
    name = block.get("name") if isinstance(block, Mapping) else None
    return name if isinstance(name, str) and name else DEFAULT


def digest_of(header: Mapping[str, Any]) -> str | None:
    """The digest of the rule set a report's header records (None for international)."""
    block = header.get("rules")
    digest = block.get("digest") if isinstance(block, Mapping) else None
    return digest if isinstance(digest, str) else None


def plays(declared: Set[str], played: RuleSet | str) -> bool:
    """Whether an engine declaring ``declared`` plays ``played``: it declares ``*``, or the set's
    name -- a rules file reusing a built-in name with other switches is played only by ``*``."""
    if ANY in declared:
        return True
    if isinstance(played, str):
        return played in declared
    if played.name in BUILTIN and not played.is_builtin:
        return False
    return played.name in declared


def mismatch(headers: Mapping[str, Mapping[str, Any]]) -> str | None:
    """Why reports of these headers (by label) cannot be compared or merged: they record different
    rule sets (by name or digest); None when they record one."""
    seen = {label: (name_of(header), digest_of(header)) for label, header in headers.items()}
    if len(set(seen.values())) <= 1:
        return None
    described = ", ".join(f"{label} plays {name}" for label, (name, _) in seen.items())
    same_names = len({name for name, _ in seen.values()}) == 1
    why = " (one name, different switches: their digests differ)" if same_names else ""
    return f"the reports are of different rule sets: {described}{why}"


def from_header(header: Mapping[str, Any]) -> RuleSet:
    """The rule set a report's header records, rebuilt from its full object (international when it
    records none); :class:`RuleSetError` when the object cannot be read back."""
    block = header.get("rules")
    if not isinstance(block, Mapping):
        return INTERNATIONAL_SET
    data = block.get("object")
    if not isinstance(data, Mapping):
        raise RuleSetError(f"the report's rule set {name_of(header)!r} has no object to read back")
    try:
        rules = rules_from_data(dict(data), f"the report's rule set {name_of(header)!r}")
    except RulesError as error:
        raise RuleSetError(str(error)) from None
    return RuleSet(rules)

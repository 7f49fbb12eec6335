"""A filing: the rule a failure breaks, the rules that verdict relies on, and why."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Filing:
    """Where a failure is filed: the rule it breaks, the rules that verdict relies on, and why."""

    rule: str
    requires: tuple[str, ...] = ()
    why: str = ""
    reading: str | None = None
    """For a suggested case: the reading its expectation rests on (Art. 8: ``move-identity``)."""

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule, then the ones it relies on."""
        return (self.rule, *self.requires)

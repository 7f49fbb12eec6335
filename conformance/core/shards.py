"""Shards: one campaign split into ``N`` runs, each taking every ``N``-th item (``--shard K/N``).

Shard ``K`` of ``N`` takes the items whose index ``i`` (from 0, in the order of the unsharded run)
has ``i mod N == K - 1``: the corpus's selected cases for ``run``, the positions for ``verify``.
Every shard gets a fair share of each kind of item (the corpus is grouped by article, generated
positions cycle through their kinds), and ``draughts-conformance merge`` puts the results back in
the unsharded order (:mod:`conformance.cli.merge`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_FORM = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


@dataclasses.dataclass(frozen=True)
class Shard:
    """Shard ``index`` (from 1) of ``count``."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.index <= self.count:
            raise ValueError(f"shard {self.index}/{self.count}: K must be from 1 to N in K/N")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"K/N"``, e.g. ``"2/4"``: the second of four shards."""
        match = _FORM.fullmatch(text)
        if match is None:
            raise ValueError(f"{text!r} is not a shard: expected K/N with 1 <= K <= N, e.g. 2/4")
        return cls(int(match[1]), int(match[2]))

    def owns(self, position: int) -> bool:
        """Whether item ``position`` (from 0) of the unsharded run is this shard's."""
        return position % self.count == self.index - 1

    def indices(self, total: int) -> range:
        """This shard's item indices among ``total``."""
        return range(self.index - 1, total, self.count)

    def select(self, items: Sequence[T]) -> list[T]:
        """This shard's items, in their order."""
        return list(items[self.index - 1 :: self.count])

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "count": self.count}

    @classmethod
    def from_json(cls, data: Any) -> Shard:
        if not isinstance(data, dict):
            raise ValueError(f"a shard is an object with index and count, not {data!r}")
        return cls(int(data["index"]), int(data["count"]))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


WHOLE = Shard(1, 1)
"""The unsharded run."""

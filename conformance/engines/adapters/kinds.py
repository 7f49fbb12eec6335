"""The kinds of engine spec, each declared once: a prefix, the options it takes, and how it starts.

An engine spec names a kind and what follows its colon (``jsonl:python my_engine.py``), or is a
name a kind answers to (``oracle``, ``dame-rs``). A kind is a class registered with
:func:`engine_kind`::

    @engine_kind
    class Toy(EngineKind):
        prefix = "toy"
        usage = ("toy:NAME",)
        order = 90

        def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
            return lambda: ToyEngine(rest)

A module of ``conformance/engines/adapters/`` is found by itself (:func:`engine_kinds` imports
them all the first time it is asked), so a new kind is one new file there; the built-in kinds are
in :mod:`conformance.engines.adapters.builtin`. The error for an unknown spec lists every kind's
``usage``, and an option a kind does not take (``takes``) is refused naming the kinds that do.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final, Literal, TypeVar

from conformance.core.discovery import import_modules_of
from conformance.core.errors import UsageError
from conformance.core.protocol import Engine
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet

if TYPE_CHECKING:  # a trace is an adapter's: the registry needs only its type
    from conformance.engines.adapters.trace import Trace

Option = Literal["cwd", "hub_params", "depth", "move_time"]
"""The engine options a kind may take (``--engine-cwd``, ``--hub-param``, ``--search-depth``,
``--move-time``); the timeouts and the trace apply to every kind."""


class SpecError(UsageError, ValueError):
    """An engine spec that names no engine, or one that cannot be loaded."""


DEFAULT_TIMEOUT: Final = 10.0
DEFAULT_START_TIMEOUT: Final = 10.0


@dataclasses.dataclass(frozen=True)
class EngineSettings:
    """Everything a kind needs to start an engine besides its spec."""

    timeout: float = DEFAULT_TIMEOUT
    trace: Trace | None = None
    cwd: Path | None = None
    hub_params: Mapping[str, str] | None = None
    depth: int | None = None
    move_time: float | None = None
    start_timeout: float = DEFAULT_START_TIMEOUT
    rule_set: RuleSet = INTERNATIONAL_SET
    """The game the engine is started for (the protocol's ``start`` carries it)."""


class EngineKind(abc.ABC):
    """A kind of engine spec. Subclasses set the class attributes and :meth:`factory`."""

    prefix: ClassVar[str] = ""
    """The part before the colon (``jsonl``); empty for a kind known by names alone."""
    usage: ClassVar[tuple[str, ...]] = ()
    """How its specs are written, as the error for an unknown spec lists them (else its names)."""
    order: ClassVar[int] = 100
    """Where it stands in that list."""
    takes: ClassVar[frozenset[Option]] = frozenset()
    """The engine options it takes; any other is refused."""
    in_process: ClassVar[bool] = False
    """Runs in this Python process: exchanges no lines (a trace says so)."""

    def names(self) -> tuple[str, ...]:
        """The bare specs that name an engine of this kind (``oracle``)."""
        return ()

    def matches(self, spec: str) -> str | None:
        """The rest of ``spec`` when it is of this kind (``""`` for a bare name), else None."""
        if spec in self.names():
            return ""
        prefix, colon, rest = spec.partition(":")
        return rest if self.prefix and colon and prefix == self.prefix and rest else None

    def check(self, rest: str, settings: EngineSettings) -> None:  # noqa: B027 (a hook: most kinds check nothing)
        """Refuse (:class:`SpecError`) what cannot start."""

    @abc.abstractmethod
    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        """A function that starts a fresh engine of this kind."""


Kind = TypeVar("Kind", bound=type[EngineKind])

_KINDS: dict[str, EngineKind] = {}


def engine_kind(cls: Kind) -> Kind:
    """Register the decorated :class:`EngineKind` (ValueError if its prefix is taken)."""
    key = cls.prefix or cls.__qualname__
    known = _KINDS.get(key)
    if known is not None and type(known).__qualname__ != cls.__qualname__:
        raise ValueError(f"two engine kinds with the prefix {key!r}")
    _KINDS[key] = cls()
    return cls


def unregister(cls: type[EngineKind]) -> None:
    """Forget a kind (a test's own, once it is done)."""
    _KINDS.pop(cls.prefix or cls.__qualname__, None)


def engine_kinds() -> tuple[EngineKind, ...]:
    """Every registered kind, in its ``order``."""
    import_modules_of("conformance.engines.adapters")
    return tuple(sorted(_KINDS.values(), key=lambda kind: (kind.order, kind.prefix)))


def kind_of(spec: str) -> tuple[EngineKind, str] | None:
    """The kind of ``spec`` and the rest of it, or None when no kind takes it."""
    for kind in engine_kinds():
        rest = kind.matches(spec)
        if rest is not None:
            return kind, rest
    return None


def known_specs() -> str:
    """The specs every kind takes, for an error message."""
    return ", ".join(usage for kind in engine_kinds() for usage in kind.usage or kind.names())


def taking(option: Option) -> list[str]:
    """The prefixes (``hub:``) of the kinds that take ``option``, in order."""
    return [f"{kind.prefix}:" for kind in engine_kinds() if option in kind.takes]

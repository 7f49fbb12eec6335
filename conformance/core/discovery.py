"""How a registry finds its entries by itself: every module of its package, imported once.

The report formats (:mod:`conformance.report.formats`), the engine kinds
(:mod:`conformance.engines.adapters.kinds`) and the subcommands (:mod:`conformance.cli.commands`)
are declared where they are written, by a decorator; importing the package's modules runs the
decorators, so that a new entry is one new module of the package.
"""

from __future__ import annotations

import importlib
import pkgutil

_imported: set[str] = set()


def import_modules_of(package: str) -> None:
    """Import every module of ``package`` (each registers what it declares), the first time only."""
    if package in _imported:
        return
    _imported.add(package)
    found = importlib.import_module(package)
    for module in pkgutil.iter_modules(found.__path__):
        importlib.import_module(f"{package}.{module.name}")

"""Adapters: how the harness reaches an engine, in this Python process or another one.

Each adapter implements :class:`conformance.core.protocol.Engine`, so the runner,
:mod:`conformance.harness.evaluate` and the judges of :mod:`conformance.harness.judges` treat every engine alike.
:mod:`conformance.engines.adapters.specs` reads an engine spec (``oracle``, ``python:MOD:ATTR``,
``jsonl:CMD``, ``hub:CMD``, ``dxp:...``, ``mutant:NAME``, a real engine's name) into a factory of
engines; :mod:`conformance.engines.adapters.inprocess` wraps a Python object,
:mod:`conformance.engines.adapters.jsonl` speaks the language-neutral JSON-lines protocol of
``docs/protocol.md`` to a subprocess (its messages in :mod:`~conformance.engines.adapters.jsonl_messages`,
its start exchange in :mod:`~conformance.engines.adapters.jsonl_start`, its requests in flight in
:mod:`~conformance.engines.adapters.jsonl_pipeline`), and :mod:`~conformance.engines.adapters.hub`
and :mod:`~conformance.engines.adapters.dxp` the protocols real engines speak (DXP's messages in
:mod:`~conformance.engines.adapters.dxp_messages`, its TCP connection in
:mod:`~conformance.engines.adapters.dxp_connection`, its sessions in
:mod:`~conformance.engines.adapters.dxp_session`).
"""

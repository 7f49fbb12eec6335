"""Running the corpus: asking an engine (:mod:`~conformance.harness.evaluate`), judging its answers
(:mod:`~conformance.harness.judges`, :mod:`~conformance.harness.failures`), the runner, the
diagnosis of a protocol fault, and the pytest plugin (docs/architecture.md)."""

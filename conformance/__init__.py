"""The conformance harness: run any draughts engine through the corpus and report rule by rule."""

__version__ = "0.1.0"

"""The case corpus: the YAML files under ``cases/``, loaded, validated and modelled.

:mod:`~conformance.core.corpus.model` is what a case is (its questions and complete expected answers,
the readings, the corpus and its selection); :mod:`~conformance.core.corpus.load` reads and validates
the files into it (YAML with line numbers, the JSON Schema, the registry ``articles.yaml``,
retired ids, the digest) and raises :class:`CorpusError` listing every problem.

The names are handed on here: ``from conformance.core.corpus import Case, load_corpus``. ``Capability``,
``MoveSpec`` and ``Verdict`` (the types the questions are stated in) come from
:mod:`conformance.core.protocol`.
"""

from conformance.core.corpus.load import (
    CORPUS_ROOT,
    REGISTRY_NAME,
    RETIRED_NAME,
    SCHEMA_NAME,
    CorpusError,
    case_files,
    corpus_digest,
    load_case_file,
    load_corpus,
    load_registry,
)
from conformance.core.corpus.model import (
    AfterQuestion,
    Case,
    Corpus,
    FenQuestion,
    InitialPositionQuestion,
    Interpretation,
    LegalMovesQuestion,
    MoveCountQuestion,
    MoveTextQuestion,
    NotationQuestion,
    OutcomeQuestion,
    PerftQuestion,
    Question,
    Reading,
    article_sort_key,
)
from conformance.core.protocol import Capability, MoveSpec, Verdict

__all__ = [
    "CORPUS_ROOT",
    "REGISTRY_NAME",
    "RETIRED_NAME",
    "SCHEMA_NAME",
    "AfterQuestion",
    "Capability",
    "Case",
    "Corpus",
    "CorpusError",
    "FenQuestion",
    "InitialPositionQuestion",
    "Interpretation",
    "LegalMovesQuestion",
    "MoveCountQuestion",
    "MoveSpec",
    "MoveTextQuestion",
    "NotationQuestion",
    "OutcomeQuestion",
    "PerftQuestion",
    "Question",
    "Reading",
    "Verdict",
    "article_sort_key",
    "case_files",
    "corpus_digest",
    "load_case_file",
    "load_corpus",
    "load_registry",
]

"""Filing: what a question relies on and which rule a failure breaks, derived, not hand-kept.

One place for every command (``run``, ``verify``, ``bisect``) and every case they suggest:

* :mod:`~conformance.core.filing.paths` -- capture paths square by square, with the traits of the
  rules they use, and the captures a rule relaxed makes possible;
* :mod:`~conformance.core.filing.moves` -- what a legal move relies on (:func:`relies_on`);
* :mod:`~conformance.core.filing.answers` -- which rule a wrong legal-move answer breaks
  (:func:`file_answer`);
* :mod:`~conformance.core.filing.questions` -- what a corpus question relies on, from its position,
  its moves and its expected answer (:func:`derived_requires`), the draw rules that must not fire
  before its answer included (:mod:`~conformance.core.filing.draws`);
* :mod:`~conformance.core.filing.played` -- which rule a move refused, or played to a wrong position,
  breaks; :mod:`~conformance.core.filing.draws` -- a wrong outcome of a corpus question, and a game its
  wrong legal moves change;
* :mod:`~conformance.core.filing.outcomes` -- which draw or game-end rule, or reading, a wrong outcome
  breaks, by the verifier's draw model (:mod:`conformance.core.draw_events`, a description of
  Art. 6 apart from the oracle's): ``verify`` files every outcome there, ``run`` the readings.

The oracle's move generator is used to *classify* moves, never to give an expected answer.
This package imports nothing of the command line or the reports; of ``verify``, only its draw
model (``draw_events``, ``draw_games``: modules that import nothing of the harness).
"""

from __future__ import annotations

from conformance.core.filing.answers import file_answer
from conformance.core.filing.base import Filing
from conformance.core.filing.moves import START_SQUARE_EMPTY, most_specific, move_words, relies_on

__all__ = ["START_SQUARE_EMPTY", "Filing", "file_answer", "most_specific", "move_words", "relies_on"]

"""Learning the pattern tables from game records, and measuring them.

One module per job:

* :mod:`.games`: the games file read into positions (``read_games``,
  ``GameSet``, the validation holdout ``HOLDOUT``);
* :mod:`.fit`: the ridge least-squares fit of a table to game results
  (``learn``) or to labelled positions (``learn_labels``), and the mirror
  symmetry the fit ties values by (``canonical_map``);
* :mod:`.measures`: how well a table predicts (``sign_accuracy``,
  ``perfect_play_accuracy``, ``score_errors``, ``exact_margins``);
* :mod:`.display`: the text the ``patterns`` commands print from those
  measures and from a table's edge values.

Everything is re-exported here, so ``from genethello.core import
pattern_learning as pl`` and ``pl.learn(...)`` keep working. The table file
(``data/patterns-v1.bin``) and its loading live in :mod:`pattern_table`,
which the evaluator uses without importing this learner.
"""

from genethello.core.pattern_learning.display import (
    EDGE_LANDMARKS,
    accuracy_lines,
    config_text,
    edge_extremes,
    edge_index,
    landmark_values,
)
from genethello.core.pattern_learning.fit import (
    ITERATIONS,
    LABEL_OVERLAP,
    LABEL_RIDGE,
    LARGE_SHAPE,
    MIN_COUNT,
    OVERLAP,
    RIDGE,
    LearnReport,
    canonical_map,
    learn,
    learn_labels,
    prior_values,
)
from genethello.core.pattern_learning.games import HOLDOUT, GameFileError, GameSet, read_games
from genethello.core.pattern_learning.measures import (
    PERFECT_MAX_EMPTIES,
    PREDICTORS,
    SCORE_ERROR_EMPTIES,
    SOLVE_CHUNK,
    exact_margins,
    perfect_play_accuracy,
    score_errors,
    sign_accuracy,
)

__all__ = [
    "HOLDOUT", "GameFileError", "GameSet", "read_games",
    "RIDGE", "MIN_COUNT", "ITERATIONS", "OVERLAP", "LABEL_RIDGE", "LARGE_SHAPE", "LABEL_OVERLAP",
    "LearnReport", "canonical_map", "learn", "learn_labels", "prior_values",
    "PREDICTORS", "PERFECT_MAX_EMPTIES", "SOLVE_CHUNK", "SCORE_ERROR_EMPTIES",
    "sign_accuracy", "exact_margins", "perfect_play_accuracy", "score_errors",
    "EDGE_LANDMARKS", "accuracy_lines", "config_text", "edge_index", "landmark_values", "edge_extremes",
]

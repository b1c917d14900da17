"""The built-in contestants of the fast 1-ply loop of network games
(:mod:`genethello.core.play.ntuple_games`), by name: the Othello League's
weighted piece counter and the uniformly random mover. One table: the loop
plays these, a run's ``fitness.opponents`` may name these and no others."""

from __future__ import annotations

__all__ = ["BUILT_IN_CONTESTANTS"]

#: ``"wpc"``: the League's WPC heuristic; ``"random"``: a uniformly random legal move.
BUILT_IN_CONTESTANTS: tuple[str, ...] = ("wpc", "random")

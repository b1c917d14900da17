"""Learning one network's weights from its own games: temporal differences.

* :mod:`.td` (typed): a staged network's value on real weights, a game's
  positions replayed from its moves, and one game's TD(λ) update;
* :mod:`.self_play`: a learning slice, many ε-greedy self-play games at a
  search depth, each batch played on the weights learned so far
  (:func:`~genethello.core.learning.self_play.learn`), with its settings
  and report.

What the cluster's learning breeder
(:mod:`genethello.cluster.breeding.network_pbt`) runs on its workers; it imports
nothing of the cluster.
"""

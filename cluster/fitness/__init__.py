"""genethello.cluster.fitness: playing a generation and rating what it played.

Batches of games (``games``, ``network_games``, ``network_fitness``, ``network_depth_fitness``: no Ray,
no database), who plays whom from which opening (``pairing``) and the
ratings of a generation (``rating_step``, ``elo``, ``tournament_rating``,
``network_rating``). It may import the core, the config and breeding's
origins; never the run, the store or the commands.
"""

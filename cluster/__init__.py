"""genethello.cluster: many players and many games.

The ground floor is ``config`` (a run's configuration, checked before
anything starts; it imports nothing of the cluster above it). Above it:
``breeding/`` (the next population), ``fitness/`` (a generation's games and
ratings), ``measures/`` (the hall, the yardstick, compare), ``run/`` (the
coordinator that sequences them, the store, the executors), ``db/`` and
``reads/`` (the database and its one read side), ``export/``, ``web/`` and
``cli/`` (the faces a user meets). The cluster imports the core; the core
never imports the cluster.
"""

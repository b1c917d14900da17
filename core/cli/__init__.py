"""The engine commands of ``genethello``: one game and one engine.

perft, solve, selfplay, match, gtp, nboard, metamachine, replay, patterns and network.
Each module has ``register(subparsers)``; the single ``genethello`` entry
point (``genethello.cluster.cli.main``) registers them lazily, so these
commands never import SQLAlchemy, Alembic or Ray. Nothing here imports
``genethello.cluster``: where an engine command can use the cluster (the
metamachine's Ray helpers, match players given by database id), the entry
point hands it a :class:`~.context.CommandContext` of the cluster's
functions (see :mod:`.context`).
"""

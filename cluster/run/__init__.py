"""genethello.cluster.run: driving a run.

The coordinator (``coordinator``: generation by generation, the only writer
of a run's data), a generation's steps in order (``generation``, and how
its fitness is played, kept and rated: ``generation_fitness``), the
store of a run in progress (``run_store``), where work runs (``executors``,
``tasks``: typed batches for Ray workers or this process), the progress line
(``progress``), a local run's private network (``private_network``), which
external engines a run may start (``engine_consent``) and labelling
positions on the workers (``labelling``). This is the top floor of a run: it
may import breeding, fitness, measures, reads, db and config; nothing below
imports it.
"""

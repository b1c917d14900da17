"""genethello.cluster.measures: measurements of the best so far.

The hall of fame (``hall``: the best so far on one absolute scale), the
yardstick against fixed opponents and its sequential tests (``yardstick``,
``yardstick_sprt``, ``measured_series``), Wilson intervals (``intervals``)
and one rating across runs (``compare``). Pure decisions over games played
elsewhere; it may import the core, the config and fitness.
"""

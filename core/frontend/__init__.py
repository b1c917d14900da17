"""What every front end of the engine shares: the GTP and NBoard front ends
(``GtpFrontend``, ``NBoardFrontend``), the web page's games and the command
line.

* :mod:`~genethello.core.frontend.lines`: a bounded line reader for
  command streams (a huge line is skipped, never held in memory).
* :mod:`~genethello.core.frontend.safety`: the one-line answer to an
  unexpected error, so that a bug costs a command and not the session.
* :mod:`~genethello.core.frontend.ponder`: thinking on the opponent's time.
* :mod:`~genethello.core.frontend.defaults`: the search limits and match
  sizes every command starts from.
* :mod:`~genethello.core.frontend.wording`: counts and durations worded
  the same way by every command ('1 game', '0.004 s').
* :mod:`~genethello.core.frontend.bounded_cache`: the one bounded cache of
  what a long-lived process builds again and again (a worker's evaluators,
  engines and players), the least recently used dropped first.
* :mod:`~genethello.core.frontend.interrupts`: Ctrl-C (SIGINT) stops a
  command even when it was started with SIGINT ignored.

None of it knows a protocol's syntax: that stays in ``core/gtp`` and
``core/nboard``.
"""

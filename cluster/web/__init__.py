"""genethello.cluster.web: the browser face of genethello.

A person plays the evolved players, replays records and stored games, and
watches runs live, from ``genethello serve``. One job per module:

* :mod:`.play` - a game's rules of engagement (settings, passes, undo,
  clocks, the page's view of a board): pure decisions, no I/O.
* :mod:`.search_pool` - one search per core; pondering gives way first.
* :mod:`.sessions` - live games: engines, pondering, abandoning searches.
* :mod:`.replays` - records (uploads, stored games) as frames to step through.
* :mod:`.run_data` - the runs page's JSON, from the read side (:mod:`genethello.cluster.reads`).
* :mod:`.security` - Host check and the access token.
* :mod:`.errors` - the user-facing errors and their HTTP statuses.
* :mod:`.app` - the Starlette routes; :mod:`.server` starts uvicorn.

Starlette and uvicorn are imported only by :mod:`.app` and :mod:`.server`,
so the CLI stays cheap to start.
"""

"""Type stub of endgame.pyx, the exact endgame solver: it has no Python face.

Its functions are ``cdef`` and reached only by ``cimport`` (search.pyx
solves through ``endgame_root`` and ``endgame_windows`` and reads
``EVAL_ORDER_EMPTIES``; game.pyx reads
``HASH_EMPTIES``); Python calls the solver through
:meth:`genethello.core.engine.search.Searcher.solve` and ``search``.
"""

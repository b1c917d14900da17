"""Type stub of midgame.pyx, the midgame search: it has no Python face.

Its functions are ``cdef`` and reached only by ``cimport`` (search.pyx
searches through ``midgame_root``, ``midgame``, ``leaf_value`` and
``minimax_value``; game.pyx reads ``PLAIN_ROOT_DEPTH``); Python calls the
search through :class:`genethello.core.engine.search.Searcher` and
:func:`~genethello.core.engine.search.minimax`.
"""

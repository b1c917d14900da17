"""genethello.core.engine: the Othello engine itself.

The rules on bitboards (``bitboard.pxd``, ``board``, ``squares``), the child
position (``move.pxd``), the searches and their parts (``search`` the root
and Python face, ``context.pxd`` the negascout loop, ``ordering.pxd``,
``midgame``, ``endgame``, ``ttable``, ``stability``), one game between two
engines (``game``), move-tree counts (``perft``) and the core's fingerprint
(``build_info``). The engine values a position only through
:mod:`genethello.core.evaluation`'s leaf interface; it may import that
folder and, for a game's result and clock, ``play.scoring`` and
``play.timecontrol`` (two leaves); never the families, players or protocols.
"""

"""genethello.core.play: playing and measuring games between players.

The one move-picking protocol and game loop (``players``), opening sets
(``openings``), what a result is worth (``scoring``), the clock
(``timecontrol``), the sequential test (``sprt``), the Othello League
(``league``, ``network_league``) and the fast 1-ply loop of network games
(``ntuple_games``). It may import the engine, the evaluation and the
families; never the protocols (GTP, NBoard) or the commands.
"""

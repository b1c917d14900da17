"""The search limits and match sizes every command starts from.

One set, so that the same two players "at depth 4" play the same games
whether ``selfplay``, ``match``, ``gtp``, ``nboard`` or the web page runs
them. Each command shows these values in its ``--help``; a command that is
given an option uses it instead. (A run's games are set by its config and
stored with it, not by these.)
"""

from __future__ import annotations

DEPTH = 8
"""Midgame plies when a front end is given no depth: ``nboard`` until the
GUI sends ``set depth``, the GTP oracle commands of an engine on the clock,
the web page's machine player when a request names none."""

EXACT_EMPTIES = 14
"""Solve exactly at this many empty squares or fewer. At 14 empties a solve
is a fraction of a second (20 games at depth 4 take 0.74 s against 0.48 s
at 8 empties), and an exact endgame is what a user expects of an engine."""

TT_BITS = 20
"""log2 of the transposition table's buckets (16 MiB)."""

GAMES = 200
"""Games of a match: 100 openings, each played with both colours. Fewer say
little: at 2 games the 95% interval of an even score is [9.5%, 90.5%]; at
200 it is about ±7 points."""

RANDOM_PLIES = 6
"""How deep the openings of a match are: its game pairs start from
positions this many plies in, drawn without replacement from the set
``distinct-6`` (:mod:`genethello.core.play.openings`: 1,773 positions, none a
mirror image of another), so that no game repeats another."""

SEED = 0
"""Seed of the random openings."""

"""ε-players: a fitness opponent that errs on purpose.

``fitness.opponents = ["eps0.2:p_1_10"]`` names ``p_1_10`` playing each of
its moves, with probability 0.2, as a legal move drawn uniformly instead of
its search's. A pool of players that always play their best move shows a
member the same few lines again and again (a search at a fixed depth is
deterministic: from one opening it plays one game); an ε-player leads the
game into positions neither side's search would reach, so a member is
ranked on how it plays from many kinds of position rather than on the
lines it has learned to beat (issue 36's "ε-players" in a varied pool).

The draws are seeded by the game itself (its opening and its two sides,
:func:`epsilon_seed`), so a game is still a pure function of its sides and
its opening: the same on any worker, in any order, after any resume.

Here are the name's grammar and the seed; the engine draws the moves
(:class:`~genethello.core.engine.game.Engine`'s ``epsilon``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

__all__ = ["EPSILON_PREFIX", "anchor_opponents", "epsilon_player", "epsilon_player_name", "epsilon_seed",
           "split_epsilon"]

#: An ε-player's name: ``eps<ε>:<player>``, ε in (0, 1], the player any name
#: a fitness opponent may be.
EPSILON_PREFIX = "eps"

_EPSILON_NAME = re.compile(r"eps(?P<epsilon>[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?):(?P<player>.+)\Z", re.DOTALL)


def split_epsilon(name: str) -> tuple[float, str]:
    """``(ε, the player's own name)`` of ``name``; ``(0.0, name)`` for a
    name that is not an ε-player's.

    Raises:
        ValueError: one line, for an ``eps...:`` name whose ε is not in (0, 1].
    """
    found = _EPSILON_NAME.match(name)
    if found is None:
        return 0.0, name
    epsilon = float(found["epsilon"])
    if not 0.0 < epsilon <= 1.0:
        raise ValueError(f"{name!r}: an ε-player's ε must be in (0, 1], not {found['epsilon']}")
    return epsilon, found["player"]


def epsilon_player(name: str) -> bool:
    """Whether ``name`` names an ε-player (``eps<ε>:<player>``)."""
    return _EPSILON_NAME.match(name) is not None


def epsilon_player_name(epsilon: float, player: str) -> str:
    """The name of ``player`` erring with probability ``epsilon``."""
    return f"{EPSILON_PREFIX}{epsilon:g}:{player}"


def epsilon_seed(black: str, white: str, opening: Sequence[int]) -> int:
    """The seed of a game's ε draws: a hash of its two sides' names (ε
    included) and its opening, so the double game's colour-swapped twin
    draws another stream and the same game draws the same one anywhere."""
    text = f"{black}\n{white}\n{','.join(str(int(m)) for m in opening)}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8, person=b"gt-eps-seed").digest(), "little")


def anchor_opponents(opponents: Sequence[str]) -> tuple[str, ...]:
    """The fitness opponents that anchor a hall's ratings, in their order:
    all but the ε-players, whose drawn games would make the scale's zero
    move with the draws."""
    return tuple(name for name in opponents if not epsilon_player(name))

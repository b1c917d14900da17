"""Every seed a run uses, from one function: :func:`derive_seed`.

A run is a pure function of its config and seed, so each random choice it
makes (a game's opening, the hall's openings, a generation's breeding
stream, a League match, a fitness batch, a learning slice's games) draws
from a seed derived from the run's seed, a *purpose* and *keys* (the
generation, the players' places, a game's number...). The seed never
depends on which worker plays, in which batch or when.

Each purpose names its recipe in :data:`PURPOSES`. Today's purposes are
all *legacy*: they are the recipes the runs stored before this module
used (SeedSequence spawn keys, SeedSequence entropy lists, BLAKE2b of a
text, Python's string seeding), kept bit for bit so that a database of an
earlier run resumes to the same content. A new purpose should use
:class:`Spawn` with a new key. The names of opening series
(:func:`series_name`) are the same triple written as text, because an
opening set derives its own seeds from a series' name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Key = int | str

__all__ = ["Key", "PURPOSES", "derive_seed", "series_name", "Spawn", "EntropyList", "EntropyWords", "Blake2b",
           "PythonText"]


def _int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name}={value!r} must be a non-negative int")
    return int(value)


@dataclass(frozen=True)
class Spawn:
    """``SeedSequence(entropy=root, spawn_key=(*prefix, *keys))``'s first
    64-bit word, shifted right by ``shift`` (1 for a 63-bit seed)."""

    prefix: tuple[int, ...] = ()
    shift: int = 0

    def __call__(self, root: Key, keys: Sequence[Key]) -> int:
        spawn = (*self.prefix, *(_int(f"key {i}", k) for i, k in enumerate(keys)))
        sequence = np.random.SeedSequence(entropy=_int("root", root), spawn_key=spawn)
        return int(sequence.generate_state(1, np.uint64)[0]) >> self.shift


@dataclass(frozen=True)
class EntropyList:
    """Word ``index`` of ``SeedSequence([root, *prefix, *keys])``'s first
    ``words`` 64-bit words."""

    prefix: tuple[int, ...] = ()
    words: int = 1
    index: int = 0

    def __call__(self, root: Key, keys: Sequence[Key]) -> int:
        entropy = [_int("root", root), *self.prefix, *(_int(f"key {i}", k) for i, k in enumerate(keys))]
        return int(np.random.SeedSequence(entropy).generate_state(self.words, np.uint64)[self.index])


def _words(value: int) -> list[int]:
    """SeedSequence's 32-bit words of one entropy int, least significant first."""
    words = [value & 0xFFFF_FFFF]
    while value >> 32:
        value >>= 32
        words.append(value & 0xFFFF_FFFF)
    return words


@dataclass(frozen=True)
class EntropyWords:
    """The int whose 32-bit words are those of the entropy list ``[root,
    *keys]``: ``np.random.default_rng`` of it draws the stream of
    ``default_rng([root, *keys])`` (and of ``default_rng(SeedSequence([root,
    *keys]))``), since SeedSequence reads either as the same words (trailing
    zero words inside its pool of 4 count as absent)."""

    def __call__(self, root: Key, keys: Sequence[Key]) -> int:
        values = [_int("root", root), *(_int(f"key {i}", k) for i, k in enumerate(keys))]
        words = [word for value in values for word in _words(value)]
        while words and words[-1] == 0:
            if len(words) <= 4:
                words.pop()
            else:
                raise ValueError(f"{values} ends in a zero word past SeedSequence's pool: no int stands for it")
        return sum(w << (32 * i) for i, w in enumerate(words))


@dataclass(frozen=True)
class Blake2b:
    """The first 64 bits (big-endian) of BLAKE2b over ``prefix`` and root
    and keys joined by ":", shifted right by ``shift``."""

    prefix: str
    shift: int = 0

    def __call__(self, root: Key, keys: Sequence[Key]) -> int:
        text = self.prefix + ":".join(str(part) for part in (root, *keys))
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> self.shift


@dataclass(frozen=True)
class PythonText:
    """The int that ``random.Random`` makes of the text ``prefix`` + root
    and keys joined by ``sep`` (its version-2 string seeding: the text's
    bytes followed by their SHA-512), so ``random.Random(seed)`` draws what
    ``random.Random(text)`` drew."""

    prefix: str = ""
    sep: str = "/"

    def __call__(self, root: Key, keys: Sequence[Key]) -> int:
        text = (self.prefix + self.sep.join(str(part) for part in (root, *keys))).encode()
        return int.from_bytes(text + hashlib.sha512(text).digest(), "big")


Recipe = Spawn | EntropyList | EntropyWords | Blake2b | PythonText

#: Each purpose and its recipe, with the keys its callers pass. All are
#: legacy (the recipes of runs stored before): changing one changes stored
#: games.
PURPOSES: dict[str, Recipe] = {
    # (generation, black's place, white's place): one game's random opening.
    "game-opening": Spawn(),
    # (): the GeneThello hall's openings, apart from the round robin's ("HALL").
    "hall": Spawn((0x4841_4C4C,)),
    # (): the Othello League measure's match seed ("LEAG"), 63 bits.
    "league": Spawn((0x4C45_4147,), shift=1),
    # (generation,): a network hall entry's games ("NHAL").
    "network-hall": EntropyList((0x4E48_414C,)),
    # (): a network run's fast League measure ("NLEA").
    "network-league": EntropyList((0x4E4C_4541,)),
    # (generation,): the breeder's stream for generation g (default_rng of it).
    "generation": EntropyWords(),
    # (kind, game number): the positions labelled from one game.
    "label-positions": EntropyWords(),
    # (empties,) from a command's --seed: the positions sampled for a
    # score-error measure (generation's recipe: the same keys give the same seed).
    "score-error-sample": EntropyWords(),
    # (game,): a learning slice's game: its ε stream / its random opening.
    "self-play-stream": EntropyList(words=2, index=0),
    "self-play-opening": EntropyList(words=2, index=1),
    # (generation, kind, "games" | "starts"): a network fitness batch.
    "network-fitness": Blake2b("genethello-network-fitness:"),
    # (index,) from a match seed: one League game, 63 bits.
    "league-game": Blake2b("genethello-league:", shift=1),
    # () from a match seed: the fast League loop's batch seed (league-fast-1).
    "league-fast-1": Blake2b("genethello-league-fast-1:"),
    # () from a series' name: the shuffle of a listed opening set.
    "openings": PythonText("openings/"),
    # (opening, [attempt]) from a series' name: a sampled set's random walk.
    "sampled-opening": PythonText(),
    # (game number,): a labelling self-play game.
    "selfplay": PythonText("selfplay:", ":"),
    # (generation,): the openings of a network run's gate on its best so far ("BGAT"), 63 bits.
    "best-gate": Spawn((0x4247_4154,), shift=1),
}


def derive_seed(root: Key, purpose: str, *keys: Key) -> int:
    """The seed of ``purpose`` with ``keys`` in the run (or match, or
    series) seeded ``root``: a pure function of the three, the same in every
    process.

    Raises:
        ValueError: an unknown purpose, or a root or key a numeric recipe
            cannot take (not a non-negative int).
    """
    recipe = PURPOSES.get(purpose)
    if recipe is None:
        raise ValueError(f"no seed purpose {purpose!r}; the purposes are {', '.join(PURPOSES)}")
    return recipe(root, keys)


def series_name(root: Key, purpose: str, *keys: Key) -> str:
    """The name of the opening series of ``purpose`` with ``keys`` in the run
    seeded ``root`` ("hall/5/3/2"): an opening set derives the series' seeds
    from it (purposes ``openings`` and ``sampled-opening``)."""
    return "/".join(str(part) for part in (purpose, root, *keys))

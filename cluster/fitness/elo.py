"""Incremental Elo ratings, updated game by game.

Incremental Elo depends on the order in which results are applied. The
cluster's workers finish games in no particular order, so the coordinator
must sort a generation's results into their canonical schedule order (the
order of :func:`genethello.cluster.fitness.pairing.round_robin_pairs`) and apply
them with :func:`apply_in_order`; ratings then never depend on which
worker finished first. For an order-free estimate of a whole tournament see
:mod:`genethello.cluster.fitness.tournament_rating`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

#: Whatever names one player in a rating table (a database id, a
#: chromosome's text): a key, not the move-picking ``core.players.Player``.
Contestant = Hashable

#: Allowed game results from black's point of view: win, draw, loss.
SCORES = (1.0, 0.5, 0.0)


def expected_score(rating_a: float, rating_b: float) -> float:
    """Expected score of a player rated ``rating_a`` against one rated
    ``rating_b``: the logistic curve on the 400-point scale,
    ``1 / (1 + 10 ** ((rating_b - rating_a) / 400))``.

    Args:
        rating_a: the player's rating.
        rating_b: the opponent's rating.

    Returns:
        A probability in (0, 1); 0.5 for equal ratings.
    """
    return 1.0 / (1.0 + float(10.0 ** ((rating_b - rating_a) / 400.0)))


def check_score(score_black: float) -> float:
    """``score_black`` as a float, if it is 1 (win), 0.5 (draw) or 0 (loss).

    Raises:
        ValueError: naming the value, for anything else (bools included).
    """
    if isinstance(score_black, bool) or score_black not in SCORES:
        raise ValueError(f"score_black={score_black!r} must be 1 (black wins), 0.5 (draw) or 0 (white wins)")
    return float(score_black)


class EloTable:
    """Elo ratings (floats) of a set of players, updated one game at a time.

    Args:
        start_rating: rating of a player added without one.
        k: the K-factor, the most a rating moves in one game.

    Raises:
        ValueError: if k is not positive.
    """

    def __init__(self, start_rating: float = 1500.0, k: float = 32.0) -> None:
        if not k > 0:
            raise ValueError(f"k={k!r} must be positive")
        self.start_rating = float(start_rating)
        self.k = float(k)
        self._ratings: dict[Contestant, float] = {}

    def __contains__(self, player: object) -> bool:
        return player in self._ratings

    def __len__(self) -> int:
        return len(self._ratings)

    def __repr__(self) -> str:
        return f"EloTable(start_rating={self.start_rating}, k={self.k}, players={len(self)})"

    def add(self, player: Contestant, rating: float | None = None) -> None:
        """Enter a new player at ``rating`` (the start rating when None).

        Raises:
            ValueError: if the player is already in the table (re-adding
                would silently reset its rating).
        """
        if player in self._ratings:
            raise ValueError(f"player {player!r} is already in the table, rated {self._ratings[player]}")
        self._ratings[player] = self.start_rating if rating is None else float(rating)

    def rating(self, player: Contestant) -> float:
        """The player's current rating.

        Raises:
            KeyError: if the player is not in the table.
        """
        try:
            return self._ratings[player]
        except KeyError:
            raise KeyError(f"player {player!r} is not in the Elo table") from None

    def ratings(self) -> dict[Contestant, float]:
        """A copy of all ratings, in the order players were added."""
        return dict(self._ratings)

    def update(self, black: Contestant, white: Contestant, score_black: float) -> tuple[float, float]:
        """Apply one game's result to both players' ratings.

        Black gains ``k * (score_black - expected_score(black, white))`` and
        white loses exactly the same amount, so every update is zero-sum.
        Players not yet in the table are added at the start rating first.

        Args:
            black: the player who moved first.
            white: the opponent.
            score_black: 1 if black won, 0.5 for a draw, 0 if white won.

        Returns:
            The new ratings ``(black, white)``.

        Raises:
            ValueError: if score_black is not 1, 0.5 or 0, or a player
                plays itself.
        """
        score = check_score(score_black)
        if black == white:
            raise ValueError(f"player {black!r} cannot play itself")
        for player in (black, white):
            if player not in self._ratings:
                self.add(player)
        rating_black = self._ratings[black]
        rating_white = self._ratings[white]
        delta = self.k * (score - expected_score(rating_black, rating_white))
        self._ratings[black] = rating_black + delta
        self._ratings[white] = rating_white - delta
        return self._ratings[black], self._ratings[white]


def apply_in_order(table: EloTable, results: Iterable[tuple[Contestant, Contestant, float]]) -> EloTable:
    """Apply ``(black, white, score_black)`` results to ``table`` in the
    order given.

    The order is the caller's responsibility: the coordinator must sort a
    batch of results by schedule order (the canonical round-robin order)
    before calling this, so that ratings never depend on which worker
    finished first. Given the same starting table and the same ordered
    results, the ratings are identical floats.

    Args:
        table: updated in place.
        results: games in canonical order.

    Returns:
        ``table``, for chaining.

    Raises:
        ValueError: as :meth:`EloTable.update`, naming the position of the
            bad result; all results are checked before any is applied, so
            the table is left unchanged.
    """
    games = list(results)
    for position, (black, white, score_black) in enumerate(games):
        try:
            check_score(score_black)
        except ValueError as error:
            raise ValueError(f"result {position}: {error}") from None
        if black == white:
            raise ValueError(f"result {position}: player {black!r} cannot play itself")
    for black, white, score_black in games:
        table.update(black, white, score_black)
    return table

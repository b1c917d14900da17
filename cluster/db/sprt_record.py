"""A yardstick SPRT's record as stored beside its yardstick row: a value
type the read side can load without importing the code that plays the test
(:mod:`genethello.cluster.measures.yardstick_sprt` plays it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from genethello.core.frontend.wording import signed
from genethello.core.play.sprt import Decision, Sprt

__all__ = ["SprtRecord"]


@dataclass(frozen=True)
class SprtRecord:
    """Where a yardstick SPRT stopped, as stored beside its row: the test,
    its decision ("H0", "H1", or None when ``max_games`` came first), the
    LLR then and the pair counts (0, 0.5, 1, 1.5, 2 points)."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_games: int
    decision: Decision | None
    llr: float
    pairs: tuple[int, int, int, int, int]

    def test(self) -> Sprt:
        return Sprt(self.elo0, self.elo1, self.alpha, self.beta)

    def to_json(self) -> dict[str, object]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "max_games": self.max_games, "decision": self.decision, "llr": self.llr, "pairs": list(self.pairs)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SprtRecord:
        """The record :meth:`to_json` wrote.

        Raises:
            ValueError: for a decision or pair counts it cannot have written.
        """
        pairs = data["pairs"]
        if not isinstance(pairs, list) or len(pairs) != 5:
            raise ValueError(f"a stored SPRT's pairs are not five counts: {pairs!r}")
        decision = data["decision"]
        if decision not in ("H0", "H1", None):
            raise ValueError(f"a stored SPRT's decision is {decision!r}")
        a, b, c, d, e = (int(n) for n in pairs)
        return cls(float(data["elo0"]), float(data["elo1"]), float(data["alpha"]), float(data["beta"]),
                   int(data["max_games"]), decision, float(data["llr"]), (a, b, c, d, e))

    def text(self) -> str:
        """'H1 accepted after 48 games (LLR +2.98 >= +2.94; H0 0, H1 20
        logistic Elo)', or H0, or 'neither after 2000 games (...)'."""
        sprt = self.test()
        games = 2 * sum(self.pairs)
        llr, lower, upper = signed(self.llr), signed(sprt.lower), signed(sprt.upper)
        bounds = f"H0 {self.elo0:g}, H1 {self.elo1:g} logistic Elo, alpha {self.alpha:g}, beta {self.beta:g}"
        if self.decision == "H1":
            return f"SPRT: H1 accepted after {games} games (LLR {llr} >= {upper}; {bounds})"
        if self.decision == "H0":
            return f"SPRT: H0 accepted after {games} games (LLR {llr} <= {lower}; {bounds})"
        return f"SPRT: neither after {games} games, the cap (LLR {llr} within [{lower}, {upper}]; {bounds})"

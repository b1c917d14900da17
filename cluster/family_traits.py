"""What differs between families for the cluster's faces, as facts: one
table from a family's name to its :class:`FamilyTraits`. The config check,
the commands, the read side and the web page ask these facts and never
which family a run holds; a new family is an entry here (and one in
:mod:`genethello.cluster.breeding.family_breeding` for its breeding; the
generation's steps, :mod:`genethello.cluster.run.generation`, ask these
facts too).

On the ground floor beside :mod:`genethello.cluster.config`: it imports
only the core's family names.
"""

from __future__ import annotations

from dataclasses import dataclass

from genethello.core.families.chromosome import FAMILY_NAME as GENETHELLO_FAMILY
from genethello.core.families.network_family import FAMILY_NAME as NETWORK_FAMILY
from genethello.core.families.registry import Kind

__all__ = ["FAMILY_TRAITS", "FamilyTraits", "traits_of", "traits_of_family"]


@dataclass(frozen=True)
class FamilyTraits:
    """What a run of one family measures and shows.

    Attributes:
        yardstick_plays_players: whether the yardstick plays other players
            (chromosomes, GTP engines, sequential opponents) at the run's
            depth; False where the yardstick is the Othello League measure
            alone (networks, bred as 1-ply move pickers).
        measure_name: how a report names the yardstick when it is not a
            series against players (None when it is).
        charts_genes: whether the run's best so far is charted gene by gene
            (else the read side draws the family's own chart of the best).
        fitness_as_points: whether a generation's fitness is kept as each
            member's points over batches of games rather than game by game
            for every fitness kind: then no moves to export, no W/D/L, and a
            member's rating is its performance in its generation (networks
            on the fast loop). A family without it keeps its round robin
            game by game and points for the other kinds
            (:meth:`~genethello.cluster.fitness.fitness_kinds.FitnessKind.kept_as_points`).
        plays_fast_loop: whether its members play the fast 1-ply loop
            (``fitness.depth = 0``); a family without it plays a fitness
            kept as points by search (``fitness.depth >= 1``).
        player_export: the command that writes one of its players out,
            ``{db}`` standing for the database (what ``export`` suggests
            where a run stored no game moves).
    """

    yardstick_plays_players: bool
    measure_name: str | None
    charts_genes: bool
    fitness_as_points: bool
    plays_fast_loop: bool = False
    player_export: str = "genethello best --db {db}"

    @property
    def keeps_game_records(self) -> bool:
        """Whether a generation's fitness games are stored one by one: moves
        to export, each member's W/D/L, an Elo from its games."""
        return not self.fitness_as_points

    @property
    def rating_name(self) -> str:
        """What a report calls a member's rating: ``Elo`` from its games, or
        ``rating``, a performance rating from its fitness points."""
        return "rating" if self.fitness_as_points else "Elo"

    @property
    def plays_at_fitness_setting(self) -> bool:
        """Whether the run's games (fitness, hall) are played at
        ``[fitness]``'s setting (``fitness.depth``, or the fast 1-ply loop at
        ``fitness.epsilon``) rather than ``[games]``'s round-robin depth."""
        return self.fitness_as_points


#: Every family's traits by the family's name.
FAMILY_TRAITS: dict[str, FamilyTraits] = {
    GENETHELLO_FAMILY: FamilyTraits(yardstick_plays_players=True, measure_name=None, charts_genes=True,
                                    fitness_as_points=False),
    NETWORK_FAMILY: FamilyTraits(yardstick_plays_players=False, measure_name="League measure", charts_genes=False,
                                 fitness_as_points=True, plays_fast_loop=True,
                                 player_export="genethello network export ID --db {db} --out F.json"),
}


def traits_of_family(name: str) -> FamilyTraits:
    """The traits of the family called ``name`` (GeneThello's for a name no
    family has: every run stored before families existed is GeneThello's)."""
    return FAMILY_TRAITS.get(name, FAMILY_TRAITS[GENETHELLO_FAMILY])


def traits_of(kind: Kind) -> FamilyTraits:
    """The traits of ``kind``'s family."""
    return traits_of_family(kind.family)

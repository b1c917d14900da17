"""An absolute yardstick for a run's best player.

Elo inside one population says nothing across generations (GeneThello's
generation-436 best had a lower Elo than generation 1's). So every K
generations the run's best so far plays a fixed gauntlet — a random player,
a greedy most-flips player, a classic square-weights player, generation 1's
champion and any fixed reference chromosomes the config names (such as the
pattern-only ``p_1_10``) — with both colours from openings that depend only
on the run's seed, drawn without replacement from the run's opening set
(``openings.series``, :mod:`genethello.core.play.openings`), plus the Othello
League measure (its evaluation at 1 ply against the standard WPC heuristic,
both sides ε-random; :mod:`genethello.core.play.league`) and, optionally,
external GTP engines: the same test every time.

The built-in games are :class:`~genethello.cluster.fitness.games.GauntletSpec` s
played through the run's executor (Ray workers), so a measurement of 386
games an opponent — a 95% interval of at most ±5 points — takes seconds.
External engines run here, one game at a time, for ``gtp_games`` games each
(a wider interval, shown as such). Every score keeps its W/D/L counts; the
coordinator stores them: this module only measures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from genethello.cluster.config import RunConfig
from genethello.cluster.fitness.games import BUILT_IN_OPPONENTS, GameSettings, GauntletOutcome, GauntletSpec
from genethello.cluster.measures.measured_series import play_specs, series_openings
from genethello.cluster.measures.yardstick_score import YardstickScore
from genethello.cluster.measures.yardstick_sprt import measure_sprt, sprt_name
from genethello.cluster.work import Executor
from genethello.core.families.registry import Individual
from genethello.core.gtp.client import ProtocolError
from genethello.core.gtp.gtp_player import GtpPlayer
from genethello.core.play.league import league_schedule
from genethello.core.play.players import ChromosomePlayer, Player, play
from genethello.core.play.scoring import MatchScore
from genethello.core.play.seeds import derive_seed

#: The stored name of the Othello League measure.
LEAGUE = "othello-league"

#: The built-in opponents as (the name a spec carries, display name): the
#: display name is the spec's name; the order fixes each opponent's seeds.
BUILT_IN = tuple((name, name) for name in BUILT_IN_OPPONENTS)
FIRST_CHAMPION = "generation-1 champion"


def league_seed(run_seed: int) -> int:
    """The League measure's match seed: the run seed's, apart from openings."""
    return derive_seed(run_seed, "league")


def gauntlet_specs(config: RunConfig, candidate: str, first_champion: str,
                   patterns: str = "") -> tuple[list[GauntletSpec], list[str]]:
    """Every built-in game of a measurement and, per spec, the opponent's
    display name. Pure: a function of the config, the seed and the players.

    Against opponent k both colours play each opening of its series
    (:func:`series_openings`; an opponent that is the candidate itself is
    left out, the others keep their k); the League's games are seeded by
    (League seed, index) with the candidate Black in even games."""
    ys = config.yardstick
    opponents = [*BUILT_IN, ("chromosome:" + first_champion, FIRST_CHAMPION),
                 *(("chromosome:" + text, text) for text in ys.opponents)]
    specs: list[GauntletSpec] = []
    names: list[str] = []
    for k, (opponent, name) in enumerate(opponents):
        if opponent == "chromosome:" + candidate:
            continue   # a player against itself scores 50% by symmetry: not worth the games
        pairs = ys.games_per_opponent // 2
        for seed, opening in series_openings(config, 1_000 + k, pairs):
            for candidate_black in (True, False):
                specs.append(GauntletSpec(len(specs), candidate, opponent, candidate_black, seed,
                                          opening, ys.depth, config.games.exact_empties, patterns))
                names.append(name)
    for game in league_schedule(ys.league_double_games, league_seed(config.seed)):
        specs.append(GauntletSpec(len(specs), candidate, "league", game.evolved_is_black, game.seed, (), 1, 0,
                                  patterns))
        names.append(LEAGUE)
    return specs, names


def tally(names: Sequence[str], outcomes: Sequence[GauntletOutcome]) -> list[YardstickScore]:
    """Per opponent (in first-appearance order of ``names``), the W/D/L of
    the candidate's margins; ``outcomes`` are matched to specs by index."""
    scores: dict[str, MatchScore] = {}
    for name in names:
        scores.setdefault(name, MatchScore(0, 0, 0))
    for outcome in outcomes:
        name = names[outcome.index]
        scores[name] = scores[name].add(outcome.margin)
    return [YardstickScore(name, result) for name, result in scores.items()]


def gtp_match(candidate: Player, engine: GtpPlayer, games: int, config: RunConfig, key: int) -> MatchScore:
    """``games`` games (even) of ``candidate`` against external engine
    ``key``, each opening of its series (:func:`series_openings`) with both
    colours."""
    result = MatchScore(0, 0, 0)
    for seed, moves in series_openings(config, 2_000 + key, games // 2):
        opening = list(moves)
        result = result.add(play(candidate, engine, opening, seed))
        result = result.add(-play(engine, candidate, opening, seed))
    return result


def measure_gtp(config: RunConfig, candidate: Individual,
                on_failure: Callable[[str, Exception], None] | None = None,
                patterns: str = "") -> list[YardstickScore]:
    """The candidate against each configured external GTP engine. One that
    fails (dies, refuses a command, answers nonsense) is left out and
    reported to ``on_failure``, so a broken peer does not stop the run."""
    ys = config.yardstick
    scores = []
    me = ChromosomePlayer(candidate, ys.depth, config.games.exact_empties, patterns=patterns or None)
    for key, command in enumerate(ys.gtp_engines):
        engine = None
        try:
            engine = GtpPlayer(command)
            scores.append(YardstickScore(command, gtp_match(me, engine, ys.gtp_games, config, key)))
        except (RuntimeError, ProtocolError, ValueError, OSError) as exc:
            if on_failure is None:
                raise
            on_failure(command, exc)
        finally:
            if engine is not None:
                engine.close()
    return scores


def measure(config: RunConfig, candidate: Individual, first_champion: Individual, executor: Executor,
            settings: GameSettings, should_stop: Callable[[], bool],
            on_failure: Callable[[str, Exception], None] | None = None) -> list[YardstickScore] | None:
    """The run's yardstick: ``candidate`` (the best so far) against the
    built-in gauntlet on the executor, then the external engines here.
    None when stopped before the built-in games were all played. Of the
    run's game ``settings`` only the pattern table counts: the gauntlet
    plays at the yardstick's own depth."""
    specs, names = gauntlet_specs(config, str(candidate), str(first_champion), settings.patterns)
    outcomes = play_specs(executor, specs, should_stop)
    if outcomes is None:
        return None
    sequential = measure_sprt(config, str(candidate), executor, should_stop, settings.patterns)
    if sequential is None:
        return None
    return (tally(names, outcomes) + measure_gtp(config, candidate, on_failure, settings.patterns)
            + [YardstickScore(sprt_name(opponent), score, record) for opponent, score, record in sequential])


__all__ = ["LEAGUE", "FIRST_CHAMPION", "YardstickScore", "gauntlet_specs", "series_openings", "tally",
           "play_specs", "measure_gtp", "measure", "league_seed", "gtp_match"]

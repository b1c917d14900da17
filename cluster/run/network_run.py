"""The coordinator's steps for a network run (``population.type`` an
n-tuple architecture such as ``all-2``).

The sequence is the coordinator's (:mod:`genethello.cluster.run.coordinator`):
play, rate, hall and yardstick when due, breed. What differs:

playing  the generation's fitness tasks (:func:`network_fitness.fitness_tasks`,
         a pure function of the config, the seed, the members and, for
         hall fitness, the hall) run on the executor; each task's points
         are committed as it arrives (``fitness_results``), and a resumed
         generation plays only the tasks without a row. The games
         themselves are not stored. With ``fitness.depth >= 1`` the same
         games are played by the core's engine at that depth and exact
         setting (:mod:`network_depth_fitness`), the fixed opponents being
         any player a command takes.
rated    every member's points (summed in task order) become its
         performance rating (:mod:`network_rating`), stored where a round
         robin's ratings go, so ``best``, ``history`` and ``status`` read a
         network run like any other.
hall     every ``hall.every`` generations (and at 1) the breeder's champion
         (CMA-ES: the distribution mean; the GA and random search: the top
         of the ranking) is stored with its weights, enters the hall and
         plays its members, ``hall.games_per_member`` stored 1-ply games at
         the fitness ε (:mod:`network_games`); the members are rated as any
         hall's. With ``fitness.depth >= 1`` the entry's games are played
         at the fitness depth and exact setting, each member's pairs from
         distinct openings of ``openings.series``: the hall then ranks its
         members by the game the fitness plays, and the best so far (the
         hall's top, as in every run with a hall) is the best at that game,
         whatever the fitness kind. In a fixed-opponent run the entrant
         also plays the fitness opponents (after the members, sharing
         ``hall.games_per_member`` as members do): they are rated with the
         hall as anchors, not members (the scale is Elo against the first
         opponent), so the best so far is the member best against the
         opponents and the hall together, and the first entrant, alone in
         the hall, is measured too.
yardstick every ``yardstick.every`` generations (and at 1) the best so far
         plays the League measure on the fast loop: ``league_double_games``
         double games against the WPC heuristic, ε = 0.1 on both sides,
         stored as opponent ``othello-league-fast``: the measure version
         ``league-fast-1`` of :mod:`genethello.core.play.network_league`, one
         name for both (its docstring), printed as
         ``othello-league-fast (league-fast-1)``.
bred     the breeder gets the members best first with their points and the
         state it stored with the generation.

Both measurements cost a small fraction of a generation's fitness when
their K is chosen so (config/league.toml).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from genethello.cluster.breeding.breeders import RatedGeneration
from genethello.cluster.breeding.origins import resolve
from genethello.cluster.fitness.fitness_kinds import fitness_kind
from genethello.cluster.fitness.matches import WPC, Matches, MatchOutcome, Pairing, PlaySetting, side_of
from genethello.cluster.fitness.network_depth_fitness import (
    DepthContestant,
    DepthFitnessTask,
    depth_contestant,
    depth_fitness_tasks,
    opponent_individual,
    resolve_opponent,
)
from genethello.cluster.fitness.network_fitness import (
    FitnessGames,
    FitnessPoints,
    NetworkFitnessTask,
    fitness_tasks,
)
from genethello.cluster.fitness.network_games import contestant
from genethello.cluster.fitness.network_rating import fitness_games_per_member, rank_by_points, rate_fitness
from genethello.cluster.fitness.pairing import opening_seed
from genethello.cluster.measures.best_gate import Stopped, best_so_far, carried_best, gated_hall_best
from genethello.cluster.measures.hall import HallPairing, entry_schedule
from genethello.cluster.measures.measured_series import draw_series
from genethello.cluster.measures.panel_measure import measure_panel, panel_line
from genethello.cluster.measures.yardstick_score import YardstickScore
from genethello.cluster.reads import HallEntry
from genethello.cluster.reads.anchor import rating_anchor
from genethello.cluster.run.generation_steps import RunHandle
from genethello.cluster.run.run_store import FitnessRow, HallGameRow
from genethello.cluster.work import batches_of
from genethello.core.families.network_family import NetworkIndividual
from genethello.core.families.registry import Individual, parse_individual
from genethello.core.frontend.wording import counted
from genethello.core.play.network_league import LEAGUE_FAST_OPPONENT, league_fast_label
from genethello.core.play.scoring import MatchScore
from genethello.core.play.seeds import derive_seed

__all__ = ["LEAGUE_FAST", "LEAGUE_EPSILON", "NetworkSteps"]

#: The yardstick's name for the League measure played on the fast loop
#: (version ``league-fast-1``: :mod:`genethello.core.play.network_league`).
LEAGUE_FAST = LEAGUE_FAST_OPPONENT

#: The League's ε (both sides), whatever the run's fitness uses.
LEAGUE_EPSILON = 0.1

class NetworkSteps:
    """A network run's steps, on its run's store, executor and progress."""

    def __init__(self, run: RunHandle) -> None:
        self.run = run
        self.store = run.store
        self.config = run.config
        # Generation g's ranking and stored breeder state, read once: the hall
        # step asks the breeder for its champion and the breed step for its
        # next population from them. (The hall's best to inject are read
        # each time: the hall step between the two changes them.)
        self._ranked: dict[int, tuple[list[NetworkIndividual], list[float], list[int], list[int], bytes | None]] = {}
        self._opponents: list[DepthContestant] | None = None

    def games_total_at_start(self) -> int | None:
        """0: the fitness tasks' total is known only once the generation plays."""
        return 0

    # ------------------------------------------------------------ inputs
    def members(self, g: int) -> list[tuple[int, NetworkIndividual]]:
        """(player id, network) of generation g in slot order."""
        found = []
        for pid, text, payload in self.store.population_individuals(g):
            individual = parse_individual(text, payload)
            if not isinstance(individual, NetworkIndividual):
                raise ValueError(f"{text} is not a network")
            found.append((pid, individual))
        return found

    def _fitness_hall_entries(self, g: int) -> list[HallEntry]:
        """The hall members generation g's fitness plays, in entry order:
        those entered before g (g's own champion enters after g's games, in
        its hall step); none unless the fitness kind plays the hall. The
        rating and the breeder count the same members as the games did,
        whether they ask before or after the hall step."""
        if not fitness_kind(self.config.fitness.kind).plays_hall:
            return []
        return [entry for entry in self.store.hall_members() if entry.entered < g]

    def _fitness_hall(self, g: int) -> list[NetworkIndividual]:
        """The networks of :meth:`_fitness_hall_entries` (hall fitness plays them)."""
        found = []
        for entry in self._fitness_hall_entries(g):
            individual = entry.chromosome()
            if not isinstance(individual, NetworkIndividual):
                continue
            found.append(individual)
        return found

    def opponents(self) -> list[DepthContestant]:
        """``fitness.opponents`` as depth tasks carry them (resolved once)."""
        if self._opponents is None:
            self._opponents = [resolve_opponent(spec) for spec in self.config.fitness.opponents]
        return self._opponents

    def tasks(self, g: int, members: list[NetworkIndividual]) -> list[NetworkFitnessTask] | list[DepthFitnessTask]:
        """Generation g's fitness tasks, in task order: on the fast 1-ply
        loop, or with ``fitness.depth >= 1`` on the core's engine."""
        f = self.config.fitness
        if f.depth:
            return depth_fitness_tasks(f, g, self.config.seed, members, self._fitness_hall(g), self.opponents(),
                                       batch_games=f.batch_games)
        return fitness_tasks(f, g, self.config.seed, members, self._fitness_hall(g), batch_games=f.batch_games)

    def points(self, g: int, members: int) -> np.ndarray:
        """Each member slot's points over generation g's stored tasks, summed in task order."""
        total = np.zeros(members, dtype=np.float64)
        for row in self.store.fitness_results(g):
            total += np.frombuffer(row.points, dtype="<f8")
        return total

    # ----------------------------------------------------------- playing
    def play(self, g: int) -> bool:
        """Play generation g's missing fitness tasks; True when all are in."""
        members = [m for _, m in self.members(g)]
        tasks = self.tasks(g, members)
        done = self.store.fitness_done(g)
        total = sum(t.games for t in tasks)
        self.store.set_games_total(g, total)
        self.run.progress.start_generation(g, total, sum(t.games for t in tasks if t.task_index in done),
                                           self.run.best_text())

        def rows(outcomes: list[FitnessPoints]) -> list[FitnessRow]:
            self.run.progress.advance(sum(o.games for o in outcomes))
            return [FitnessRow(o.task_index, np.ascontiguousarray(o.points, dtype="<f8").tobytes(), o.games)
                    for o in outcomes]

        committed = self.run.play_and_commit(FitnessGames(), batches_of(t for t in tasks if t.task_index not in done),
                                             rows, lambda batch: self.store.commit_fitness(g, batch))
        return len(done) + committed == len(tasks)

    # ------------------------------------------------------------ rating
    def rate(self, g: int) -> None:
        """Rate generation g from its points and store it."""
        rows, _ = self.store.rating_inputs(g)
        hall = len(self._fitness_hall_entries(g))
        f = self.config.fitness
        per_member = fitness_games_per_member(f, len(rows), hall)
        rating = rate_fitness(rows, self.points(g, len(rows)), per_member, self.config.rating.start, f.kind)
        has_hall = self.config.hall.games_per_member > 0
        top = self.store.hall_ranked(1) if has_hall else []
        self.store.store_rating(g, rating, self.config.storage.keep_moves_generations,
                                hall_best=carried_best(self.config, self.store, g, top[0].player_id if top else None),
                                has_hall=has_hall)
        stats = rating.stats
        self.run.progress.message(f"generation {g} rated: best member {stats['best_score']:.1%} of "
                                  f"{counted(per_member, 'game')} ({f.kind}), mean {stats['mean_score']:.1%}")

    def ranked(self, g: int) -> tuple[list[NetworkIndividual], list[float], list[int], list[int]]:
        """Generation g's members best first (points, then slot), with their
        points, player ids and slots."""
        found = self.members(g)
        points = self.points(g, len(found)).tolist()
        order = rank_by_points(points)
        return ([found[i][1] for i in order], [points[i] for i in order], [found[i][0] for i in order],
                [int(i) for i in order])

    def rated(self, g: int) -> tuple[RatedGeneration, list[int], list[int]]:
        """Generation g as its breeder sees it: the members best first with
        their points, the hall's best to inject (GA, random search) and the
        state the breeder stored with it; with the player ids of the ranked
        and the injected members (whom the breeder's origins name)."""
        cfg = self.config
        if g not in self._ranked:
            self._ranked = {g: (*self.ranked(g), self.store.breeder_state(g))}
        ranked, points, ids, slots, state = self._ranked[g]
        hall = []
        if cfg.breeding.inject_top and cfg.hall.games_per_member:
            hall = self.store.hall_ranked(cfg.breeding.inject_top)
        injected: list[Individual] = [e.chromosome() for e in hall]
        games = fitness_games_per_member(cfg.fitness, len(ranked), len(self._fitness_hall_entries(g)))
        rated = RatedGeneration(g, self.run.kind, ranked, injected, state, points, slots, games)
        return rated, ids, [e.player_id for e in hall]

    # -------------------------------------------------------------- hall
    def hall_due(self, g: int) -> bool:
        hall = self.config.hall
        return hall.games_per_member > 0 and (g == 1 or g % hall.every == 0) and not self.store.hall_rated(g)

    def hall_step(self, g: int) -> bool:
        """Generation g's champion enters the hall and plays its members;
        then every member is rated. False when stopped before the entry's
        games were all in."""
        champion = self.run.breeder.champion(self.rated(g)[0])
        if not isinstance(champion, NetworkIndividual):
            raise ValueError(f"{champion} is not a network")
        pid = self.store.add_player(champion, self.config.rating.start)
        entering = self.store.enter_hall(g, pid)
        members = self.store.hall_members()
        f = self.config.fitness
        # A fixed-opponent run at depth: the fitness opponents play every
        # entrant too, after the members, and anchor the hall's scale.
        anchored = bool(f.depth) and fitness_kind(f.kind).anchors_hall
        anchors = [self.store.add_player(opponent_individual(spec), self.config.rating.start)
                   for spec in f.opponents] if anchored else []
        if entering:
            others = [m for m in members if m.player_id != pid]
            schedule = entry_schedule(len(others) + len(anchors), self.config.hall.games_per_member)
            places = [(p.game_index, 0 if p.entrant_black else 1 + p.opponent,
                       1 + p.opponent if p.entrant_black else 0) for p in schedule]
            if f.depth:
                setting = PlaySetting(f.depth, f.exact_empties)
                openings = self._hall_openings(g, schedule)
                specs = [Pairing(i, b, w, openings[p.opponent, p.pair])
                         for (i, b, w), p in zip(places, schedule, strict=True)]
                task = Matches(tuple(side_of(c, setting) for c in (
                    depth_contestant(champion), *(depth_contestant(m.chromosome()) for m in others),
                    *(self.opponents() if anchored else ()))))
            else:
                setting = PlaySetting(0, epsilon=f.epsilon)
                specs = [Pairing(i, b, w) for i, b, w in places]
                task = Matches(tuple(side_of(c, setting) for c in (
                    contestant(champion), *(self._contestant(m.chromosome()) for m in others))),
                    derive_seed(self.config.seed, "network-hall", g))
            ids = [pid, *(m.player_id for m in others), *anchors]
            played = self.store.played_hall_games(g)
            by_index = {s.index: s for s in specs}

            def rows(outcomes: list[MatchOutcome]) -> list[HallGameRow]:
                return [HallGameRow(o.index, ids[by_index[o.index].black], ids[by_index[o.index].white], o.score, 0)
                        for o in outcomes]

            committed = self.run.play_and_commit(task, batches_of(s for s in specs if s.index not in played),
                                                 rows, lambda batch: self.store.commit_hall_games(g, batch))
            if len(played) + committed != len(specs):
                return False
        best = gated_hall_best(self.config, self.store, g, members, anchors, self.run.executor_now(),
                               self.run.should_stop)
        if isinstance(best, Stopped):
            return False
        self.run.rate_hall_members(g, members, f", {rating_anchor(self.config).text()}", anchors, best)
        return True

    def _hall_openings(self, g: int, schedule: list[HallPairing]) -> dict[tuple[int, int], tuple[int, ...]]:
        """The opening of every (member, pair) of generation g's hall entry at
        depth: each member's pairs one series of ``openings.series`` (the
        measured series' set, e.g. ``distinct-6``) drawn without replacement,
        seeded by the run seed, g and the member; with ``random`` each pair's
        own random walk of ``fitness.start_plies`` plies."""
        pairs: dict[int, int] = {}
        for p in schedule:
            pairs[p.opponent] = max(pairs.get(p.opponent, 0), p.pair + 1)
        seed = self.config.seed
        openings: dict[tuple[int, int], tuple[int, ...]] = {}
        for member, count in pairs.items():
            seeds = [opening_seed(seed, g, member, pair) for pair in range(count)]
            drawn = draw_series(self.config.openings.series, self.config.fitness.start_plies, seeds,
                                f"network-hall/{seed}/{g}/{member}")
            openings.update(((member, pair), moves) for pair, moves in enumerate(drawn))
        return openings

    @staticmethod
    def _contestant(individual: object) -> Any:
        if not isinstance(individual, NetworkIndividual):
            raise ValueError(f"{individual} is not a network")
        return contestant(individual)

    # --------------------------------------------------------- yardstick
    def yardstick_due(self, g: int) -> bool:
        ys = self.config.yardstick
        return (self.run.yardstick is not None and ys.every > 0 and (ys.league_double_games > 0 or ys.panel_games > 0)
                and (g % ys.every == 0 or g == 1))

    def measure(self, g: int) -> bool:
        """The best so far's League measure on the fast loop, stored with
        generation g; False when stopped before it was complete (it is
        played again in full on resume: it is stored only whole)."""
        if self.store.yardstick_measured(g):
            return True
        best = best_so_far(self.config, self.store, g)
        if best is None:
            return True
        panel = measure_panel(self.config, best.chromosome(), self.run.executor_now(), self.run.should_stop)
        if panel is None:
            return False
        n = self.config.yardstick.league_double_games
        if n == 0:
            self.store.store_yardstick(g, best.player_id, panel)
            self._say_panel(g, best.text, panel)
            return True
        specs = [Pairing(i, i % 2, 1 - i % 2) for i in range(2 * n)]
        setting = PlaySetting(0, epsilon=LEAGUE_EPSILON)
        task = Matches((side_of(self._contestant(best.chromosome()), setting), side_of(WPC, setting)),
                       derive_seed(self.config.seed, "network-league"))
        margins: dict[int, int] = {}
        for outcomes in self.run.executor_now().run(task, batches_of(specs), self.run.should_stop):
            for o in outcomes:
                margins[o.index] = o.score if o.index % 2 == 0 else -o.score
        if len(margins) != len(specs):
            return False
        score = YardstickScore(LEAGUE_FAST, MatchScore.from_margins(margins[i] for i in range(len(specs))))
        self.store.store_yardstick(g, best.player_id, [score, *panel])
        self.run.progress.message(f"yardstick at generation {g}: {best.text}: {league_fast_label()} "
                                  f"{score.result.text()}")
        self._say_panel(g, best.text, panel)
        return True

    def _say_panel(self, g: int, best: str, panel: list[YardstickScore]) -> None:
        if panel:
            ys = self.config.yardstick
            self.run.progress.message(f"panel at generation {g}: {best}: "
                                      f"{panel_line(panel, ys.depth, self.config.games.exact_empties)}")

    # ----------------------------------------------------------- breeding
    def breed(self, g: int) -> bool:
        """Breed generation g + 1 with the run's breeder from generation g's
        ranking, its points and the breeder's stored state, and start it;
        False when stopped before the breeder's work for the workers was
        all in (nothing is stored: the step is redone on resume, to the
        same members)."""
        rated, ranked_ids, injected_ids = self.rated(g)
        bred = self.run.next_generation(rated)
        if bred is None:
            return False
        self.store.start_generation(g + 1, bred.members, self.config.rating.start, breeder_state=bred.state,
                                    games_total=0, origins=resolve(bred.origins, g + 1, ranked_ids, injected_ids))
        return True

"""One generation of a run, for every family and every breeder: its steps
in the order they run, top to bottom.

  start    generation 1, drawn by the run's breeder
  play     the generation's fitness games (stored as they come in; a
           resumed generation plays only what has no stored result)
  rate     the generation's ratings, stored in one transaction
  hall     when due, the generation's champion enters the hall of fame and
           plays its members (stored as they come in); then every member is
           rated from all hall games and the top is the best so far
  measure  when due, the best so far is measured (the yardstick)
  breed    unless the run ends here, the breeder's next generation,
           stored and started in one transaction

Each step leaves the run in a state ``resume`` continues from (the
generation's stored status, ``playing`` or ``rated``; :meth:`Generation.advance`
takes the run from one to the next). The coordinator
(:mod:`~genethello.cluster.run.coordinator`) drives it, holds the lease and
the executor, and hands the breeder's work to the workers
(:meth:`RunHandle.next_generation`: plan on the coordinator, work on the
workers, the result back to the breeder); this module reaches the run only
through :class:`RunHandle`, its public face.

What differs between runs is asked, never branched on by family name:

* the fitness kind, for the run's family, how its fitness is kept
  (``FitnessKind.kept_as_points``): game by game in a round robin, or as
  each member's points over the kind's games —
  :mod:`~genethello.cluster.run.generation_fitness` plays, rates and ranks
  either way, and names the hall's champion;
* the family, where its hall plays (``plays_at_fitness_setting``: at
  ``[games]``' depth, or at ``[fitness]``' setting) and what its yardstick
  is (``yardstick_plays_players``: the run's best against players and
  engines, or the Othello League measure on the fast loop and the panel);
* the fitness kind, whether its fixed opponents anchor the hall's scale;
* the breeder, the next generation (``next_plan``) and the hall's champion
  of a points fitness (``champion``).

Every decision is a pure function of the config, the seed and the stored
results, so the database's content depends neither on the number of
workers nor on interruptions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from genethello.cluster.breeding.breeders import Breeder
from genethello.cluster.breeding.origins import resolve
from genethello.cluster.breeding.population import generation_rng
from genethello.cluster.breeding.protocols import Bred, RatedGeneration
from genethello.cluster.config import RunConfig, measured_openings
from genethello.cluster.family_traits import traits_of
from genethello.cluster.fitness.epsilon_players import anchor_opponents
from genethello.cluster.fitness.fitness_kinds import fitness_kind
from genethello.cluster.fitness.games import GameSettings
from genethello.cluster.fitness.matches import WPC, Matches, MatchOutcome, Pairing, PlaySetting, side_of
from genethello.cluster.fitness.network_depth_fitness import depth_contestant, opponent_individual, resolve_opponent
from genethello.cluster.fitness.pairing import opening_seed
from genethello.cluster.measures.best_gate import Stopped, best_so_far, carried_best, gated_hall_best
from genethello.cluster.measures.hall import (
    HallPairing,
    entry_openings,
    entry_schedule,
    entry_specs,
    hall_order,
    hall_settings,
    rate_hall,
)
from genethello.cluster.measures.measured_series import draw_series
from genethello.cluster.measures.panel_measure import measure_panel, panel_line
from genethello.cluster.measures.yardstick_score import YardstickScore
from genethello.cluster.reads import HallEntry
from genethello.cluster.reads.anchor import rating_anchor
from genethello.cluster.run.frozen_opponents import database_lookup
from genethello.cluster.run.generation_fitness import fitness_of
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_store import HallGameRow, RunStore
from genethello.cluster.work import BatchSource, Executor, Task, batches_of
from genethello.core.families.registry import Individual, Kind, parse_individual
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.wording import counted
from genethello.core.play.network_league import LEAGUE_FAST_OPPONENT, league_fast_label
from genethello.core.play.scoring import MatchScore
from genethello.core.play.seeds import derive_seed

__all__ = ["EngineFailure", "Generation", "LEAGUE_EPSILON", "LEAGUE_FAST", "RunHandle", "Yardstick"]

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")
Row = TypeVar("Row")

#: Told of an external GTP engine that failed and is left out: (its command, the error).
EngineFailure = Callable[[str, Exception], None]

#: The yardstick's name for the League measure played on the fast loop
#: (version ``league-fast-1``: :mod:`genethello.core.play.network_league`).
LEAGUE_FAST = LEAGUE_FAST_OPPONENT

#: The League's ε (both sides), whatever the run's fitness uses.
LEAGUE_EPSILON = 0.1


class Yardstick(Protocol):
    """Measures a run's best so far against fixed opponents;
    :func:`genethello.cluster.measures.yardstick.measure` is the real one.
    Returns the scores, or None when stopped before they were all played."""

    def __call__(self, config: RunConfig, candidate: Individual, first_champion: Individual, executor: Executor,
                 settings: GameSettings, should_stop: Callable[[], bool],
                 on_failure: EngineFailure | None = None) -> list[YardstickScore] | None: ...


class RunHandle(Protocol):
    """What a generation's steps may use of the run they drive: its store,
    its config, where and how its games are played, its progress line, and
    the coordinator's few shared services."""

    @property
    def store(self) -> RunStore: ...
    @property
    def config(self) -> RunConfig: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def population_size(self) -> int: ...
    @property
    def settings(self) -> GameSettings: ...
    @property
    def progress(self) -> Progress: ...
    @property
    def breeder(self) -> Breeder: ...
    @property
    def yardstick(self) -> Yardstick | None: ...
    @property
    def engines(self) -> tuple[str, ...]: ...
    @property
    def run_id(self) -> int: ...

    def executor_now(self) -> Executor:
        """The run's executor (started once the lease is held)."""
        ...

    def should_stop(self) -> bool:
        """Whether the run was asked to stop (a signal, ``genethello stop``);
        renews the lease as a side effect."""
        ...

    @property
    def stopped(self) -> bool:
        """Whether a stop was asked for already (without looking again)."""
        ...

    def play_and_commit(self, task: Task[Item, Outcome], next_batch: BatchSource,
                        rows: Callable[[list[Outcome]], list[Row]], commit: Callable[[list[Row]], int]) -> int:
        """Run ``task`` on the batches and commit each result's rows in
        batched transactions; returns how many new results were stored."""
        ...

    def best_text(self) -> str:
        """The best so far as the progress line names it."""
        ...

    def next_generation(self, rated: RatedGeneration) -> Bred | None:
        """The breeder's next generation bred from ``rated``, its work (if
        it gives the workers any) done on the executor; None when stopped
        before that work was all in."""
        ...


class Generation:
    """The steps of a run's generations (module docstring), on its handle."""

    def __init__(self, run: RunHandle) -> None:
        self.run = run
        self.store = run.store
        self.config = run.config
        self.traits = traits_of(run.kind)
        self.fitness = fitness_of(run.store, run.config, run.kind, run.settings, self.traits.keeps_game_records)

    def advance(self, g: int, status: str | None) -> str | None:
        """Take generation g on from its stored ``status`` to the next
        state: None to go on, or the run's status to end with ('stopped',
        'finished' or 'converged')."""
        if g == 0:
            self.start()
            return None
        if status == "playing":
            if not self.play(g):
                return "stopped"
            self.rate(g)
            return None
        if status == "rated":
            if self.hall_due(g) and not self.hall(g):
                return "stopped"
            if self.measure_due(g) and not self.measure(g):
                return "stopped"
            ending = self.ending(g)
            if ending:
                return ending
            if self.run.should_stop() or not self.breed(g):
                return "stopped"
            return None
        raise RuntimeError(f"run {self.run.run_id}: generation {g} is in an unexpected state {status!r}")

    # ------------------------------------------------------------------ start
    def start(self) -> None:
        """Generation 1, as the run's breeder draws it (from the initial
        population stored with the run, if any: never from a file the
        database names)."""
        cfg = self.config
        if cfg.population.initial and not cfg.population.members:
            raise UserError(f"run {self.run.run_id} names the file {cfg.population.initial!r} for its initial "
                            "population and does not hold its chromosomes (it was created before runs stored "
                            "them); genethello opens no file a database names: start the run afresh with "
                            "'genethello evolve --config FILE'")
        initial = [parse_individual(text) for text in cfg.population.members]
        bred = self.run.breeder.first_population(self.run.kind, self.run.population_size, initial,
                                                 generation_rng(cfg.seed, 1))
        self.store.start_generation(1, bred.members, cfg.rating.start, breeder_state=bred.state,
                                    games_total=self.fitness.games_total_at_start,
                                    origins=resolve(bred.origins, 1, ()))

    # ------------------------------------------------------------------- play
    def play(self, g: int) -> bool:
        """Play generation g's missing fitness games; True when all are in."""
        games = self.fitness.games(g)
        progress = self.run.progress
        progress.start_generation(g, games.games, games.games_stored, self.run.best_text())

        def rows(outcomes: list[Any]) -> list[Any]:
            progress.advance(games.games_of(outcomes))
            return games.rows(outcomes)

        committed = self.run.play_and_commit(games.task, games.missing, rows, games.commit)
        return games.stored + committed == games.items

    # ------------------------------------------------------------------- rate
    def rate(self, g: int) -> None:
        """Rate generation g from its stored results and store the ratings
        (the best so far stays the hall's top in a run with a hall)."""
        rating, said = self.fitness.rating(g)
        has_hall = self.config.hall.games_per_member > 0
        top = self.store.hall_ranked(1) if has_hall else []
        self.store.store_rating(g, rating, self.config.storage.keep_moves_generations,
                                hall_best=carried_best(self.config, self.store, g, top[0].player_id if top else None),
                                has_hall=has_hall)
        # With a hall the best so far is decided by the hall step that follows,
        # which says it; saying the previous one here would name two bests.
        if said:
            self.run.progress.message(f"generation {g} rated: {said}")
        else:
            self.run.progress.message(f"generation {g} rated" if has_hall else
                                      f"generation {g} rated: best so far {self.run.best_text()}")

    # ------------------------------------------------------------------- hall
    def hall_due(self, g: int) -> bool:
        """Whether generation g's champion enters the hall (every
        ``hall_every`` generations of its fitness, and at 1) and the hall
        is not yet rated."""
        every = self.fitness.hall_every()
        return (self.config.hall.games_per_member > 0 and (g == 1 or g % every == 0)
                and not self.store.hall_rated(g))

    def hall(self, g: int) -> bool:
        """Generation g's champion enters the hall and plays its members;
        then every member is rated from all hall games, and the top becomes
        the best so far. False when stopped before the entry's games were
        all in (resume plays only the missing ones).

        In a run whose hall plays at the fitness setting with fixed
        opponents at depth, the opponents play every entrant too, after the
        members, sharing ``hall.games_per_member`` as members do: they are
        rated with the hall as anchors, not members (the scale is Elo
        against the first opponent). ε-players play the fitness only."""
        pid, champion = self.fitness.champion(g, self.run.breeder)
        entering = self.store.enter_hall(g, pid)
        members = self.store.hall_members()
        f = self.config.fitness
        anchored = self.traits.plays_at_fitness_setting and bool(f.depth) and fitness_kind(f.kind).anchors_hall
        anchor_specs = anchor_opponents(f.opponents) if anchored else ()
        players = database_lookup(self.store.db)
        anchors = [self.store.add_player(opponent_individual(spec, players), self.config.rating.start)
                   for spec in anchor_specs]
        if entering:
            others = [m for m in members if m.player_id != pid]
            schedule = entry_schedule(len(others) + len(anchors), self.config.hall.games_per_member)
            setting, openings, seed = self._hall_play(g, schedule)
            contestants = (depth_contestant(champion), *(depth_contestant(m.chromosome()) for m in others),
                           *(resolve_opponent(spec, players) for spec in anchor_specs))
            task = Matches(tuple(side_of(c, setting) for c in contestants), seed)
            specs = (entry_specs(schedule, openings) if openings is not None else
                     [Pairing(p.game_index, *((0, 1 + p.opponent) if p.entrant_black else (1 + p.opponent, 0)))
                      for p in schedule])
            if not self._play_hall_games(g, task, specs, [pid, *(m.player_id for m in others), *anchors]):
                return False
        best = gated_hall_best(self.config, self.store, g, members, anchors, self.run.executor_now(),
                               self.run.should_stop)
        if isinstance(best, Stopped):
            return False
        self._rate_hall(g, members, anchors, best)
        return True

    def _hall_play(self, g: int, schedule: list[HallPairing]
                   ) -> tuple[PlaySetting, dict[tuple[int, int], tuple[int, ...]] | None, int]:
        """How generation g's entry plays: the setting, each (member, pair)'s
        opening (None: the standard start) and the fast loop's seed. At the
        run's ``[games]`` depth, from the hall's openings (``openings.series``
        under the hall seed); at the fitness setting, searched at
        ``fitness.depth`` from :meth:`_fitness_hall_openings`, or on the
        fast loop at the fitness ε from the standard start."""
        if not self.traits.plays_at_fitness_setting:
            settings = self.run.settings
            return (settings.play_setting(),
                    entry_openings(hall_settings(settings), self.config.openings.series, g, schedule), 0)
        f = self.config.fitness
        if f.depth:
            return PlaySetting(f.depth, f.exact_empties), self._fitness_hall_openings(g, schedule), 0
        return PlaySetting(0, epsilon=f.epsilon), None, derive_seed(self.config.seed, "network-hall", g)

    def _fitness_hall_openings(self, g: int, schedule: list[HallPairing]) -> dict[tuple[int, int], tuple[int, ...]]:
        """The opening of every (member, pair) of generation g's entry at the
        fitness depth: each member's pairs one series of ``openings.series``
        drawn without replacement, seeded by the run seed, g and the member;
        with ``random`` each pair's own random walk of ``fitness.start_plies``
        plies. (Its own recipe, older than the hall seed's: kept so that
        stored runs resume to the same games.)"""
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

    def _play_hall_games(self, g: int, task: Matches, specs: list[Pairing], ids: list[int]) -> bool:
        """Play the entry's games without a stored row; True when all are in.
        A search's nodes are stored with a game where the fitness keeps
        games one by one."""
        played = self.store.played_hall_games(g)
        by_index = {s.index: s for s in specs}
        keeps_nodes = self.traits.keeps_game_records

        def rows(outcomes: list[MatchOutcome]) -> list[HallGameRow]:
            return [HallGameRow(o.index, ids[by_index[o.index].black], ids[by_index[o.index].white], o.score,
                                o.nodes if keeps_nodes else 0) for o in outcomes]

        committed = self.run.play_and_commit(task, batches_of(s for s in specs if s.index not in played), rows,
                                             lambda batch: self.store.commit_hall_games(g, batch))
        return len(played) + committed == len(specs)

    def _rate_hall(self, g: int, members: Sequence[HallEntry], anchors: Sequence[int], best: int | None) -> None:
        """Rate every hall member from all hall games, store the ratings with
        generation g and report the best so far. ``anchors``: players who
        play hall games but are no members, rated with the members (the
        scale relative to the first of them), neither stored nor ranked.
        ``best``: the best so far when not the hall's top (hall.gate_pairs)."""
        fitted = rate_hall([*anchors, *(m.player_id for m in members)], self.store.hall_games())
        ratings = {m.player_id: fitted[m.player_id] for m in members}
        texts = {m.player_id: m.text for m in members}
        order = hall_order(ratings, {m.player_id: m.entered for m in members}, texts)
        order = order if best is None else [best, *(pid for pid in order if pid != best)]
        self.store.store_hall_ratings(g, ratings, order)
        top = ratings[order[0]]
        self.run.progress.message(f"hall of fame after generation {g}: {counted(len(members), 'member')}; best so "
                                  f"far {texts[order[0]]} (hall {top.rating:+.0f} ± {top.stderr:.0f}, "
                                  f"{rating_anchor(self.config).text()})")

    # ---------------------------------------------------------------- measure
    def measure_due(self, g: int) -> bool:
        """Whether the best so far is measured after generation g: every
        ``yardstick.every`` generations and at 1, when the run has a
        yardstick with something to play."""
        ys = self.config.yardstick
        plays = self.traits.yardstick_plays_players or ys.league_double_games > 0 or ys.panel_games > 0
        return self.run.yardstick is not None and ys.every > 0 and plays and (g % ys.every == 0 or g == 1)

    def measure(self, g: int) -> bool:
        """Measure the best so far and store the scores with generation g
        (a generation already measured is not measured again); False when
        stopped before they were all played. The family says what the
        yardstick plays: players (:meth:`_against_players`), or the League
        measure and the panel (:meth:`_league_and_panel`)."""
        if self.traits.yardstick_plays_players:
            return self._against_players(g)
        return self._league_and_panel(g)

    def _against_players(self, g: int) -> bool:
        """The best so far against the yardstick's players, GTP engines and
        sequential tests at the run's depth."""
        yardstick = self.run.yardstick
        best = self.store.best()
        if self.store.yardstick_measured(g) or yardstick is None or best is None:
            return not self.run.stopped
        hall = self.store.hall_members()
        first = hall[0] if hall else self.store.ranked(1, generation=1)[0]
        config = replace(self.config, yardstick=replace(self.config.yardstick, gtp_engines=self.run.engines))
        try:
            scores = yardstick(config=config, candidate=best.chromosome(), first_champion=first.chromosome(),
                               executor=self.run.executor_now(), settings=self.run.settings,
                               should_stop=self.run.should_stop,
                               on_failure=lambda name, exc: self.run.progress.message(
                                   f"yardstick: GTP engine {name!r} failed and is left out: {exc}"))
        except (ArithmeticError, ValueError) as exc:
            # A measurement reports on the run and decides nothing in it: one
            # that cannot be computed (a stored config's test beyond what the
            # code computes) is left out, and the run goes on and resumes.
            self.run.progress.message(f"yardstick at generation {g} failed and is left out: "
                                      f"{' '.join(str(exc).split())}")
            return not self.run.stopped
        if scores is None:
            return not self.run.stopped
        self.store.store_yardstick(g, best.player_id, scores)
        if scores:
            how = measured_openings(self.config, self.config.yardstick.random_plies)
            self.run.progress.message(f"yardstick at generation {g} ({how}): {best.text}: "
                                      + "; ".join(f"{sc.opponent} {sc.result.text()}" for sc in scores))
        return not self.run.stopped

    def _league_and_panel(self, g: int) -> bool:
        """The best so far's League measure on the fast loop
        (``yardstick.league_double_games`` double games against the WPC
        heuristic, ε = :data:`LEAGUE_EPSILON` on both sides, stored as
        opponent :data:`LEAGUE_FAST`) and the panel; stored only whole
        (played again in full on resume)."""
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
        task = Matches((side_of(depth_contestant(best.chromosome()), setting), side_of(WPC, setting)),
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

    # ------------------------------------------------------------------ ending
    def ending(self, g: int) -> str | None:
        """'finished' at the last generation, 'converged' when the best has
        not changed for ``stop.converge_generations`` generations (counted
        from the run's convergence baseline), else None."""
        max_generations, baseline = self.store.limits()
        if g >= max_generations:
            return "finished"
        n = self.config.stop.converge_generations
        if n <= 0 or g - n <= baseline:
            return None
        bests = self.store.bests(g - n, g)
        return "converged" if len(bests) == n + 1 and len(set(bests)) == 1 else None

    # ------------------------------------------------------------------- breed
    def breed(self, g: int) -> bool:
        """Breed generation g + 1 from rated generation g with the run's
        breeder (it alone decides how) and start it; False when stopped
        before the breeder's work for the workers was all in (nothing is
        stored: the step is redone on resume, to the same members)."""
        ranking = self.fitness.ranking(g)
        bred = self.run.next_generation(ranking.rated)
        if bred is None:
            return False
        origins = resolve(bred.origins, g + 1, ranking.ranked_ids, ranking.injected_ids)
        self.store.start_generation(g + 1, bred.members, self.config.rating.start, breeder_state=bred.state,
                                    games_total=self.fitness.games_total_at_start, origins=origins)
        return True

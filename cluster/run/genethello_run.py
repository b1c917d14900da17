"""GeneThello's generation steps: the round robin's games stored one by one,
Elo and the Bradley-Terry fit, the hall entry every generation, the
yardstick of chromosomes, and the breeder's next population.

The sequence is the coordinator's (:mod:`genethello.cluster.run.coordinator`,
whose docstring says what each state means); these steps reach the run only
through its :class:`~genethello.cluster.run.generation_steps.RunHandle`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from genethello.cluster.breeding.breeders import RatedGeneration
from genethello.cluster.breeding.origins import resolve
from genethello.cluster.config import measured_openings
from genethello.cluster.fitness.matches import Matches, MatchOutcome, Pairing, SeededOpenings, Side
from genethello.cluster.fitness.pairing import RoundRobin
from genethello.cluster.fitness.rating_step import rate_generation
from genethello.cluster.measures.hall import entry_openings, entry_schedule, entry_specs, hall_settings
from genethello.cluster.reads import HallEntry, RankedPlayer
from genethello.cluster.reads.anchor import rating_anchor
from genethello.cluster.run.generation_steps import RunHandle
from genethello.cluster.run.run_store import GameRow, HallGameRow
from genethello.cluster.work import batches_of

__all__ = ["GeneThelloSteps"]


class GeneThelloSteps:
    """GeneThello's steps of one generation, on a run's handle."""

    def __init__(self, run: RunHandle) -> None:
        self.run = run
        self.store = run.store
        self.config = run.config

    def games_total_at_start(self) -> int | None:
        """None: a round robin's total is its pairs, counted as they are stored."""
        return None

    # --------------------------------------------------------------- playing
    def play(self, g: int) -> bool:
        """Play the generation's missing games; True when all are in.

        Workers return outcomes keyed by pair index; the pair's slots give
        the player ids."""
        members = self.store.population(g)
        pairs = RoundRobin(len(members))   # computed per index: nothing of size P² is built
        played = self.store.played_pairs(g)
        self.run.progress.start_generation(g, len(pairs), len(played), self.run.best_text())

        settings = self.run.settings

        def missing_games() -> Iterator[Pairing]:
            for i in range(len(pairs)):
                if i not in played:
                    b, w = pairs[i]   # a formula: computed once a game
                    yield Pairing(i, b, w)     # its opening drawn by the worker (SeededOpenings)

        def rows(outcomes: list[MatchOutcome]) -> list[GameRow]:
            self.run.progress.advance(len(outcomes))
            found = []
            for o in outcomes:
                b, w = pairs[o.index]
                found.append(GameRow(o.index, members[b][0], members[w][0], o.score, o.black_discs,
                                     o.white_discs, o.moves, o.nodes))
            return found

        task = Matches(tuple(Side(text, None, settings.play_setting()) for _, text in members),
                       openings=SeededOpenings(settings.seed, g, settings.random_plies))
        committed = self.run.play_and_commit(task, batches_of(missing_games()), rows,
                                             lambda batch: self.store.commit_games(g, batch))
        return len(played) + committed == len(pairs)

    # ---------------------------------------------------------------- rating
    def rate(self, g: int) -> None:
        """Rate the generation (a pure step on its stored games) and store it."""
        members, games = self.store.rating_inputs(g)
        rating = rate_generation(members, games, start_rating=self.config.rating.start, k=self.config.rating.k)
        has_hall = self.config.hall.games_per_member > 0
        hall = self.store.hall_ranked(1) if has_hall else []
        self.store.store_rating(g, rating, self.config.storage.keep_moves_generations,
                                hall_best=hall[0].player_id if hall else None, has_hall=has_hall)
        # With a hall the best so far is decided by the hall step that follows,
        # which says it; saying the previous one here would name two bests.
        self.run.progress.message(f"generation {g} rated" if has_hall else
                                  f"generation {g} rated: best so far {self.run.best_text()}")

    # ------------------------------------------------------------------ hall
    def hall_due(self, g: int) -> bool:
        return bool(self.config.hall.games_per_member) and not self.store.hall_rated(g)

    def hall_step(self, g: int) -> bool:
        """Generation g's champion (the top of its own round robin) enters
        the hall and plays the members before it; then every member is
        rated from all hall games, and the top becomes the best so far.
        False when stopped before the entry's games were all in (resume
        plays only the missing ones)."""
        champion = self.store.ranked_by_score(g)[0]
        entering = self.store.enter_hall(g, champion.player_id)
        members = self.store.hall_members()
        if entering:
            others = [m for m in members if m.player_id != champion.player_id]
            schedule = entry_schedule(len(others), self.config.hall.games_per_member)
            openings = entry_openings(hall_settings(self.run.settings), self.config.openings.series, g, schedule)
            specs = entry_specs(schedule, openings)
            setting = self.run.settings.play_setting()
            task = Matches(tuple(Side(text, None, setting) for text in (champion.text, *(m.text for m in others))))
            ids = [champion.player_id, *(m.player_id for m in others)]
            if not self._play_hall_games(g, task, specs, ids):
                return False
        self.run.rate_hall_members(g, members, f", {rating_anchor(self.config).text()}")
        return True

    def _play_hall_games(self, g: int, task: Matches, specs: list[Pairing], ids: list[int]) -> bool:
        played = self.store.played_hall_games(g)
        next_batch = batches_of(sp for sp in specs if sp.index not in played)
        by_index = {sp.index: sp for sp in specs}

        def rows(outcomes: list[MatchOutcome]) -> list[HallGameRow]:
            found = []
            for o in outcomes:
                spec = by_index[o.index]
                found.append(HallGameRow(o.index, ids[spec.black], ids[spec.white], o.score, o.nodes))
            return found

        committed = self.run.play_and_commit(task, next_batch, rows,
                                             lambda batch: self.store.commit_hall_games(g, batch))
        return len(played) + committed == len(specs)

    # ------------------------------------------------------------- yardstick
    def yardstick_due(self, g: int) -> bool:
        every = self.config.yardstick.every
        return self.run.yardstick is not None and every > 0 and (g % every == 0 or g == 1)

    def measure(self, g: int) -> bool:
        """Measure the best so far against the gauntlet and store the scores
        (a generation already measured is not measured again); False when
        stopped before they were all played."""
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

    # --------------------------------------------------------------- breeding
    def breed(self, g: int) -> bool:
        """Breed generation g + 1 from rated generation g with the run's
        breeder (it alone decides how) and start it; False when stopped
        before the breeder's work for the workers was all in."""
        cfg = self.config
        P = self.run.population_size
        ranked: list[RankedPlayer] = (self.store.ranked_by_score(g) if cfg.rating.selection == "score"
                                      else self.store.ranked(P, generation=g))
        sources: list[HallEntry | RankedPlayer] = []
        if cfg.breeding.inject_top:
            # GeneThello's injection of the best of history: from the hall
            # when the run has one, else by Elo.
            hall = self.store.hall_ranked(cfg.breeding.inject_top) if cfg.hall.games_per_member else []
            sources = list(hall or self.store.ranked(cfg.breeding.inject_top))
            if cfg.breeding.inject_other_runs:
                kind = self.run.kind.name
                others = self.store.other_halls(kind, cfg.breeding.inject_top)
                sources += others or self.store.ranked(cfg.breeding.inject_top, other_runs_of_type=kind)
        rated = RatedGeneration(g, self.run.kind, [p.chromosome() for p in ranked],
                                [p.chromosome() for p in sources], self.store.breeder_state(g))
        bred = self.run.next_generation(rated)
        if bred is None:
            return False
        origins = resolve(bred.origins, g + 1, [p.player_id for p in ranked], [p.player_id for p in sources])
        self.store.start_generation(g + 1, bred.members, cfg.rating.start, breeder_state=bred.state, origins=origins)
        return True

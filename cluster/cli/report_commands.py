"""Commands that report on runs: best, history, plot.

They only format: every figure comes from :mod:`genethello.cluster.reads`.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

from genethello.cluster.cli.measure_words import measure_line
from genethello.cluster.cli.run_commands import DEFAULT_DB, add_db_options, open_existing
from genethello.cluster.config import RunConfig, measured_openings
from genethello.cluster.family_traits import traits_of_family
from genethello.cluster.fitness.fitness_kinds import fitness_kind
from genethello.cluster.reads import (
    BY_HALL,
    FIRST_CHAMPION,
    RANKINGS,
    ChampionChart,
    RunInfo,
    YardstickRow,
    champion_chart,
    find_run,
    generation_rows,
    has_measure,
    keeps_game_records,
    origins_of,
    rating_anchor,
    run_family,
    standings,
)
from genethello.core.cli.arguments import positive_int
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.registry import family_of_kind
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.wording import printable
from genethello.core.play.network_league import LEAGUE_FAST_OPPONENT, league_fast_label


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("best", help="the best chromosomes found so far (by the hall of fame's rating)")
    add_db_options(p)
    p.add_argument("--top", type=positive_int, default=10, metavar="N", help="rows to show (default: 10)")
    p.add_argument("--by", choices=RANKINGS, default=None,
                   help="ranking: hall, elo or yardstick (default: hall when the run has a hall of fame, else elo)")
    p.add_argument("--parents", action="store_true",
                   help="under each player, how it got there: its origin and parents ('genethello lineage ID' "
                        "shows the whole tree)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=run_best)

    p = sub.add_parser("history", help="per-generation table of a run, with the hall and yardstick intervals")
    add_db_options(p)
    p.set_defaults(handler=run_history)

    p = sub.add_parser("plot", help="plot the hall rating and yardstick (with intervals), Elo and genes")
    add_db_options(p)
    p.add_argument("--out", required=True, type=Path, metavar="FILE", help="PNG file to write")
    p.set_defaults(handler=run_plot)


def rates_by_points(run: RunInfo) -> bool:
    """Whether the run's members are rated from their fitness points (a
    performance rating, no W/D/L, no stored fitness games) rather than from
    games stored one by one: its fitness kind's word for its family."""
    return not keeps_game_records(run)


def stored_config(run: RunInfo) -> RunConfig:
    """The config stored with ``run``, read once per report."""
    return RunConfig.from_json(run.config_json, source=f"the stored config of run {run.name!r}")


def network_yardstick(config: RunConfig) -> str:
    """What a network run's yardstick column holds: the League measure, or
    nothing where the run measures none (a staged network's run: the
    League plays at 1 ply)."""
    ys = config.yardstick
    panel = f"the strength panel at depth {ys.depth}" if ys.every and ys.panel_games else ""
    if not (ys.every and ys.league_double_games):
        return panel or "none (yardstick.league_double_games = 0; genethello match measures the best at depth)"
    league = f"the League measure ({league_fast_label()})"
    return f"{league} and {panel}" if panel else league


def league_clause(run: RunInfo, config: RunConfig) -> str:
    """'; yardstick: …' where the run's family measures by the League
    (:func:`network_yardstick`); '' where its yardstick plays players, which
    the measure's own line describes."""
    if traits_of_family(run_family(run)).yardstick_plays_players:
        return ""
    return f"; yardstick: {network_yardstick(config)}"


def measure_command(player_id: int, config: RunConfig, db: str) -> str:
    """The command that measures a player of a run without a yardstick
    against a fixed opponent at depth, as the README's published figures
    were measured (the anchor's opponent where the run has one, else
    p_1_10; depth 4, exact 8, 400 games)."""
    anchor = rating_anchor(config).relative_to
    opponent = anchor if anchor not in (None, FIRST_CHAMPION) else "p_1_10"
    where = "" if db == DEFAULT_DB else f" --db {db}"
    return f"genethello match {player_id} {opponent}{where} --depth 4 --exact 8 --games 400 --seed 1"


def hall_description(run: RunInfo, config: RunConfig, hall_games: int) -> str:
    """How the hall's ratings were measured, in one line (``config``: the run's stored one)."""
    f = config.fitness
    scale = rating_anchor(config).zero()
    at_fitness = traits_of_family(run_family(run)).plays_at_fitness_setting
    if at_fitness and f.depth:
        # A hall at depth (generation.Generation.hall): distinct openings of the
        # measured series; a fixed-opponent run's opponents anchor the scale.
        how = (f"each entrant {config.hall.games_per_member} games, both colours, "
               f"{measured_openings(config, f.start_plies)}; depth {f.depth}, exact at {f.exact_empties} empties")
        if fitness_kind(f.kind).anchors_hall:
            how += f", against the members and the fitness opponents ({', '.join(f.opponents)})"
    elif at_fitness:
        how = (f"each entrant {config.hall.games_per_member} games, both colours, from the standard start; "
               f"1 ply, each side's move random with probability ε = {f.epsilon:g}")
    else:
        g = config.games
        how = (f"each entrant {config.hall.games_per_member} games, both colours, "
               f"{measured_openings(config, g.random_plies)}; depth {g.depth}, exact at {g.exact_empties} empties")
    return (f"hall of fame: a Bradley-Terry fit of {hall_games} games among the generations' champions "
            f"({how}), {scale}, ± one standard error")


def run_best(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    run = find_run(db, args.run)
    ranking = standings(db, run.id, args.by, args.top)
    origins = origins_of(db, [row.player.id for row in ranking.rows]) if args.parents else {}
    if args.json:
        rows = []
        for p, entry in ((row.player, row.hall) for row in ranking.rows):
            found: dict[str, object] = {
                "id": p.id, "chromosome": p.text, "elo": p.elo if p.member else None, "member": p.member,
                "wins": p.wins, "draws": p.draws, "losses": p.losses,      # W/D/L, as the table reads
                "birth": p.birth, "death": p.death, "yardstick": p.yardstick,
                "hall_rating": entry.rating if entry else None,
                "hall_stderr": entry.stderr if entry else None,
                "hall_games": entry.games if entry else None,
            }
            if p.id in origins:
                node = origins[p.id]
                found.update(origin=node.origin, parent_ids=list(node.parent_ids), how=node.describe())
            rows.append(found)
        print(json.dumps(rows, indent=2))
        return 0
    print(f"run {printable(run.name)} ({run.status}, generation {run.generation}), ranked by {ranking.by}")
    config = stored_config(run)
    if ranking.by == BY_HALL:
        print(hall_description(run, config, ranking.hall_games))
    elif not ranking.hall_rated:
        print("this run has no hall of fame (hall.games_per_member = 0): Elo is relative to the population")
    by_points = rates_by_points(run)
    if by_points:
        print("Elo: a member's performance rating from its fitness points (W/D/L: not kept, the fitness games "
              f"return points only){league_clause(run, config)}")
    elif ranking.hall_rated:
        print("hall, games: the hall of fame's rating above and its games; Elo, W/D/L: the player's round "
              "robins, on the population's own Elo scale (1500 at the start)")
    if ranking.rows and not has_measure(config):
        command = measure_command(ranking.rows[0].player.id, config, args.db)
        print(f"no yardstick in this run; to measure the best on a fixed scale: {command}")
    said = measure_line(db, run.id, config)
    if said:
        print(said)
    if any(not row.player.member for row in ranking.rows):
        print("a champion marked 'mean' is a generation's CMA-ES distribution mean: it plays no fitness games, "
              "so it has no Elo, W/D/L or death of its own; the hall rates it")
    print(f"{'id':>5} {'hall':>11} {'games':>6} {'Elo':>7} {'W/D/L':>13} {'life':>9} {'yardstick':>9}  "
          f"{family_of_kind(run.chromosome_type or '').noun}")
    for row in ranking.rows:
        p, entry = row.player, row.hall
        life = f"{p.birth}-{p.death if p.death is not None else ''}" if p.member else f"{p.birth} mean"
        ys = f"{p.yardstick:.0%}" if p.yardstick is not None else "-"
        rating = f"{entry.rating:+.0f} ± {entry.stderr:.0f}" if entry else "-"
        games = str(entry.games) if entry else "-"
        elo = f"{p.elo:.1f}" if p.member else "-"
        wdl = "-" if by_points or not p.member else f"{p.wins}/{p.draws}/{p.losses}"
        print(f"{p.id:>5} {rating:>11} {games:>6} {elo:>7} {wdl:>13} {life:>9} {ys:>9}  {p.text}")
        if p.id in origins:
            print(f"{'':>5} from: {origins[p.id].describe()}")
    return 0


def _interval_text(score: float | None, low: float | None, high: float | None) -> str:
    if score is None:
        return "-"
    if low is None:
        return f"{score:.0%}"
    return f"{score:.0%} [{low:.0%},{high:.0%}]"


def run_history(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    run = find_run(db, args.run)
    rows = generation_rows(db, run.id)
    config = stored_config(run)
    print(f"run {printable(run.name)}: {run.status}")
    if config.hall.games_per_member:
        print(f"hall (Elo): the best so far's hall rating ± one standard error, {rating_anchor(config).zero()}")
    if rates_by_points(run):
        print(f"gen best, mean: the members' performance ratings (Elo) from their points in the "
              f"{config.fitness.kind} fitness "
              f"games, which are not stored one by one{league_clause(run, config)}")
    print(f"{'gen':>4} {'status':<8} {'games':>13} {'gen best':>8} {'mean':>7} {'hall (Elo)':>11} "
          f"{'yardstick, pooled':>17}  best so far")
    def fmt(value: float | None, spec: str) -> str:
        return format(value, spec) if value is not None else "-"

    for r in rows:
        hall = f"{r.hall_rating:+.0f} ± {r.hall_stderr:.0f}" if r.hall_rating is not None else "-"
        print(f"{r.generation:>4} {r.status:<8} {f'{r.games_done}/{r.games_total}':>13} {fmt(r.best_elo, '.1f'):>8} "
              f"{fmt(r.mean_elo, '.1f'):>7} {hall:>11} "
              f"{_interval_text(r.yardstick, r.yardstick_low, r.yardstick_high):>17}  {r.best or '-'}")
    measured = [r for r in rows if r.yardstick_opponents]
    if measured:
        print()
        print("yardstick, pooled: the best so far's score [95%] over all its yardstick games together, the "
              "weakest opponents' included (sequential tests' games left out); per opponent below")
        print(f"yardstick of the best so far, per opponent: score [95% Wilson interval] (W/D/L); "
              f"{measured_openings(config, config.yardstick.random_plies)}")
        for r in measured:
            parts = []
            for o in r.yardstick_opponents:
                counts = f" ({o.wins}/{o.draws}/{o.losses})" if o.wins is not None else ""
                name = league_fast_label() if o.opponent == LEAGUE_FAST_OPPONENT else o.opponent
                if o.sprt is not None:  # a sequential test: no fixed-sample interval to claim
                    parts.append(f"{name} {o.score:.1%}{counts}, {o.sprt.text()}")
                    continue
                parts.append(f"{name} {_interval_text(o.score, o.low, o.high)}{counts}")
            print(f"{r.generation:>4}  " + "; ".join(parts))
    return 0


def _plot_champion(ax: Any, gens: list[int], chart: ChampionChart) -> None:
    """The family's chart of the best so far on ``ax`` (right-axis series on a twin axis)."""
    right = ax.twinx() if any(sr.axis == "right" for sr in chart.series) else None
    lines = []
    for sr in chart.series:
        target = right if sr.axis == "right" and right is not None else ax
        xs = [g for g, v in zip(gens, sr.values) if v is not None]
        ys = [v for v in sr.values if v is not None]
        style = {"linestyle": "--", "color": "black"} if target is right else {}
        lines += target.plot(xs, ys, label=sr.label, **style)
    ax.set_ylabel(chart.left_label)
    if right is not None and chart.right_label:
        right.set_ylabel(chart.right_label)
    ax.set_title(chart.title, fontsize="small")
    ax.legend(lines, [line.get_label() for line in lines], fontsize="x-small", ncol=3)


def run_plot(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    db = open_existing(args.db)
    run = find_run(db, args.run)
    rows = [r for r in generation_rows(db, run.id) if r.mean_elo is not None]
    if not rows:
        raise UserError(f"run {printable(run.name)} has no rated generation to plot yet")
    gens = [r.generation for r in rows]
    fig, axes = plt.subplots(4, 1, figsize=(9, 13), sharex=True)
    rated = [r for r in rows if r.hall_rating is not None]
    if rated:
        axes[0].errorbar([r.generation for r in rated], [r.hall_rating for r in rated],
                         yerr=[1.96 * (r.hall_stderr or 0.0) for r in rated], fmt="o-", capsize=3,
                         label="best so far (95% interval)")
        axes[0].legend()
    else:
        axes[0].text(0.5, 0.5, "no hall of fame in this run", ha="center", transform=axes[0].transAxes)
    axes[0].set_ylabel(f"hall rating ({rating_anchor(stored_config(run)).text()})")
    by_points = rates_by_points(run)
    what = "performance rating" if by_points else "Elo"
    axes[1].plot(gens, [r.best_elo for r in rows], label=f"generation's best {what}")
    axes[1].plot(gens, [r.mean_elo for r in rows], label=f"mean {what}")
    axes[1].set_ylabel("performance rating (fitness points)" if by_points else "Elo")
    axes[1].legend()
    series: dict[str, list[tuple[int, YardstickRow]]] = {}
    for r in rows:
        for o in r.yardstick_opponents:
            series.setdefault(o.opponent, []).append((r.generation, o))
    for name, points in series.items():
        xs = [g for g, _ in points]
        ys = [100 * o.score for _, o in points]
        err = [[100 * (o.score - o.low) if o.low is not None else 0 for _, o in points],
               [100 * (o.high - o.score) if o.high is not None else 0 for _, o in points]]
        axes[2].errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, label=name)
    axes[2].set_ylabel("yardstick score % (95%)")
    axes[2].set_ylim(0, 100)
    if series:
        axes[2].legend(fontsize="x-small", ncol=2)
    traits = traits_of_family(run_family(run))
    if traits.measure_name:
        axes[2].set_ylabel(f"{traits.measure_name} % (95%)")
    if not traits.charts_genes:
        _plot_champion(axes[3], gens, champion_chart(db, run, rows))
        type_name = run.chromosome_type
    else:
        ctype = Chromosome.parse(rows[0].best or "-").type
        genes = [Chromosome.parse(r.best or "-").genes for r in rows]
        # matplotlib's default cycle has 10 colours: an 11th gene would repeat the first one's
        # colour, so every gene past the tenth is dashed as well
        for i, name in enumerate(ctype.gene_names()):
            axes[3].plot(gens, [g[i] for g in genes], label=name, linestyle="-" if i < 10 else "--")
        axes[3].set_ylabel("genes of the best")
        axes[3].legend(fontsize="x-small", ncol=4)
        type_name = ctype.name
    axes[3].set_xlabel("generation")
    fig.suptitle(f"run {run.name} ({type_name})")
    fig.tight_layout()
    # Rendered first, then written and closed here: matplotlib writing to
    # the path itself let a failed write (a full disk, /dev/full) pass as done.
    image = io.BytesIO()
    fig.savefig(image, dpi=100, format=Path(args.out).suffix[1:].lower() or None)
    try:
        with open(args.out, "wb") as out:
            out.write(image.getvalue())
    except OSError as exc:
        raise OSError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    print(f"wrote {args.out}")
    return 0

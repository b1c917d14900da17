"""Commands that read runs and compare players: best, history, plot, match."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sqlalchemy import select

from genethello.cluster.cli.arguments import positive_float, positive_int
from genethello.cluster.cli.run_commands import add_db_options, open_existing
from genethello.cluster.coordinator import find_run
from genethello.cluster.db.models import Generation, Player, YardstickResult
from genethello.cluster.population import rank_key
from genethello.core.chromosome import Chromosome
from genethello.core.game import Engine, play_game, random_opening


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("best", help="the best chromosomes found so far")
    add_db_options(p)
    p.add_argument("--top", type=positive_int, default=10, metavar="N")
    p.add_argument("--by", choices=("elo", "yardstick"), default="elo")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=run_best)

    p = sub.add_parser("history", help="per-generation table of a run")
    add_db_options(p)
    p.set_defaults(handler=run_history)

    p = sub.add_parser("plot", help="plot Elo, yardstick and the best's genes per generation")
    add_db_options(p)
    p.add_argument("--out", required=True, type=Path, help="PNG file to write")
    p.set_defaults(handler=run_plot)

    p = sub.add_parser("match", help="two chromosomes play each other with both colours")
    p.add_argument("a", help="chromosome TYPE_BIRTH_GENES or a database id")
    p.add_argument("b", help="chromosome TYPE_BIRTH_GENES or a database id")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=positive_int)
    limit.add_argument("--time", type=positive_float, help="seconds per player per game")
    p.add_argument("--games", type=positive_int, default=2, metavar="K", help="games (even: both colours)")
    p.add_argument("--exact", type=int, default=8, metavar="E")
    p.add_argument("--random-plies", type=int, default=0, metavar="R")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--db", help="database for players given by id")
    p.set_defaults(handler=run_match)


def ranked_players(db, run_id: int, by: str) -> list[Player]:
    with db.session() as s:
        players = s.scalars(select(Player).where(Player.run_id == run_id)).all()
    if by == "yardstick":
        measured = [p for p in players if p.yardstick is not None]
        return sorted(measured, key=lambda p: (-p.yardstick, *rank_key(p.elo, p.birth, p.text)))
    return sorted(players, key=lambda p: rank_key(p.elo, p.birth, p.text))


def run_best(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    run = find_run(db, args.run)
    players = ranked_players(db, run.id, args.by)[: args.top]
    if args.json:
        print(json.dumps([{
            "id": p.id, "chromosome": p.text, "elo": p.elo, "wins": p.wins, "losses": p.losses,
            "draws": p.draws, "birth": p.birth, "death": p.death, "yardstick": p.yardstick,
        } for p in players], indent=2))
        return 0
    print(f"run {run.name} ({run.status}, generation {run.generation}), ranked by {args.by}")
    print(f"{'id':>5} {'Elo':>7} {'W/L/D':>13} {'life':>9} {'yardstick':>9}  chromosome")
    for p in players:
        life = f"{p.birth}-{p.death if p.death is not None else ''}"
        ys = f"{p.yardstick:.0%}" if p.yardstick is not None else "-"
        print(f"{p.id:>5} {p.elo:>7.1f} {f'{p.wins}/{p.losses}/{p.draws}':>13} {life:>9} {ys:>9}  {p.text}")
    return 0


def generation_rows(db, run_id: int) -> list[dict]:
    with db.session() as s:
        gens = s.scalars(select(Generation).where(Generation.run_id == run_id).order_by(Generation.number)).all()
        texts = dict(s.execute(select(Player.id, Player.text).where(Player.run_id == run_id)).all())
        elos = dict(s.execute(select(Player.id, Player.elo).where(Player.run_id == run_id)).all())
        ys: dict[int, list[float]] = {}
        for g, points, games in s.execute(select(YardstickResult.generation, YardstickResult.points,
                                                 YardstickResult.games).where(YardstickResult.run_id == run_id)):
            ys.setdefault(g, [0.0, 0])
            ys[g][0] += points
            ys[g][1] += games
    rows = []
    for g in gens:
        stats = json.loads(g.stats_json) if g.stats_json else {}
        rows.append({
            "generation": g.number, "status": g.status, "games": f"{g.games_done}/{g.games_total}",
            "best": texts.get(g.best_player_id, "-"), "best_elo": stats.get("generation_best_elo"),
            "best_so_far_elo": elos.get(g.best_player_id), "mean_elo": g.mean_elo,
            "yardstick": ys[g.number][0] / ys[g.number][1] if g.number in ys else None,
        })
    return rows


def run_history(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    run = find_run(db, args.run)
    print(f"run {run.name}: {run.status}")
    print(f"{'gen':>4} {'status':<8} {'games':>13} {'gen best':>8} {'mean':>7} {'yardstick':>9}  best so far")
    for r in generation_rows(db, run.id):
        fmt = lambda v, spec: format(v, spec) if v is not None else "-"
        print(f"{r['generation']:>4} {r['status']:<8} {r['games']:>13} {fmt(r['best_elo'], '.1f'):>8} "
              f"{fmt(r['mean_elo'], '.1f'):>7} {fmt(r['yardstick'], '.0%'):>9}  {r['best']}")
    return 0


def run_plot(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    db = open_existing(args.db)
    run = find_run(db, args.run)
    rows = [r for r in generation_rows(db, run.id) if r["mean_elo"] is not None]
    if not rows:
        raise ValueError(f"run {run.name} has no rated generation to plot yet")
    gens = [r["generation"] for r in rows]
    fig, axes = plt.subplots(3, 1, figsize=(9, 10), sharex=True)
    axes[0].plot(gens, [r["best_elo"] for r in rows], label="generation's best Elo")
    axes[0].plot(gens, [r["mean_elo"] for r in rows], label="mean Elo")
    axes[0].set_ylabel("Elo")
    axes[0].legend()
    measured = [r for r in rows if r["yardstick"] is not None]
    axes[1].plot([r["generation"] for r in measured], [100 * r["yardstick"] for r in measured], "o-")
    axes[1].set_ylabel("yardstick score %")
    axes[1].set_ylim(0, 100)
    ctype = Chromosome.parse(rows[0]["best"]).type
    genes = [Chromosome.parse(r["best"]).genes for r in rows]
    for i, name in enumerate(ctype.gene_names()):
        axes[2].plot(gens, [g[i] for g in genes], label=name)
    axes[2].set_ylabel("genes of the best")
    axes[2].set_xlabel("generation")
    axes[2].legend(fontsize="x-small", ncol=4)
    fig.suptitle(f"run {run.name} ({ctype.name})")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


def resolve_player(text: str, db_target: str | None) -> Chromosome:
    if text.isdigit():
        if not db_target:
            raise ValueError(f"player {text} looks like a database id: give --db")
        db = open_existing(db_target)
        with db.session() as s:
            player = s.get(Player, int(text))
        if player is None:
            raise ValueError(f"no chromosome with id {text} in {db.path}")
        return Chromosome.parse(player.text)
    return Chromosome.parse(text)


def run_match(args: argparse.Namespace) -> int:
    a, b = resolve_player(args.a, args.db), resolve_player(args.b, args.db)
    limits = {"depth": args.depth, "time": args.time, "exact_empties": args.exact}
    ea, eb = Engine(a, **limits), Engine(b, **limits)
    points = 0.0
    t0 = time.perf_counter()
    for game in range(args.games):
        opening = random_opening(args.random_plies, f"{args.seed}/{game // 2}")
        a_black = game % 2 == 0
        result = play_game(ea, eb, opening) if a_black else play_game(eb, ea, opening)
        a_points = result.black_points if a_black else 1.0 - result.black_points
        points += a_points
        print(f"game {game + 1}: {'A' if a_black else 'B'} black: {result.move_list()} "
              f"{result.black_discs}-{result.white_discs}; A scores {a_points:g}", flush=True)
    print(f"A = {a}\nB = {b}\nA {points:g} - {args.games - points:g} B "
          f"({args.games} games in {time.perf_counter() - t0:.1f} s)")
    return 0

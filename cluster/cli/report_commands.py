"""Commands that read runs: best, history, plot."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sqlalchemy import select

from genethello.core.cli.arguments import positive_int
from genethello.cluster.cli.run_commands import add_db_options, open_existing
from genethello.cluster.coordinator import find_run
from genethello.cluster.db.models import Generation, Player, YardstickResult
from genethello.cluster.population import rank_key
from genethello.core.chromosome import Chromosome


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

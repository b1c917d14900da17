"""How good a run's best is on a fixed scale, in one line: what ``best``,
``status`` and a run's last line say beside the hall's relative rating.

The line is the run's last stored measurement of its best so far: the
strength panel's scores and its one anchored rating where the run plays
the panel (``yardstick.panel_games``), else each yardstick opponent's
score with its 95% interval; a run that measures nothing gets the command
that would measure its best.
"""

from __future__ import annotations

from genethello.cluster import reads
from genethello.cluster.config import RunConfig
from genethello.cluster.db import Database
from genethello.cluster.measures.panel import PREFIX
from genethello.cluster.measures.panel_measure import panel_line, panel_rating
from genethello.cluster.measures.yardstick_score import YardstickScore
from genethello.core.frontend.wording import counted
from genethello.core.play.scoring import MatchScore

__all__ = ["measure_line"]


def measure_line(db: Database, run_id: int, config: RunConfig) -> str | None:
    """'measure (generation G, player P): ...' of the run's last stored
    measurement; None where the run has none yet."""
    found = reads.latest_measure(db, run_id)
    if found is None:
        return None
    generation, text, rows = found
    head = f"measure at generation {generation} of {text}"
    panel = [r for r in rows if r.opponent.startswith(PREFIX) and r.wins is not None]
    ys = config.yardstick
    if panel:
        scores = [YardstickScore(r.opponent, MatchScore(r.wins or 0, r.draws or 0, r.losses or 0)) for r in panel]
        games = max(r.games for r in panel)
        exact = config.games.exact_empties
        words = panel_line(scores, ys.depth, exact)
        if panel_rating(scores, ys.depth, exact) is None:
            words += "; no anchored rating (the panel's anchors were measured at other depths or exact settings)"
        setting = f"depth {ys.depth} (exact {exact}, {counted(games, 'game')} a member)"
        return f"{head}: the strength panel at {setting}: {words}"
    said = []
    for r in rows:
        if r.opponent.startswith(PREFIX):
            continue
        interval = f" [{r.low:.1%}, {r.high:.1%}]" if r.low is not None and r.high is not None else ""
        said.append(f"{r.opponent} {r.score:.1%}{interval} ({counted(r.games, 'game')})")
    return f"{head}: {', '.join(said)}" if said else None

"""The runs page against a small real evolution started by the test: the
run appears, its progress moves by itself, the charts are drawn, the top
chromosomes are one click from a game, and stored games replay."""

from __future__ import annotations

import re
import subprocess
import time

import pytest

from ..cluster.conftest import cli_env, genethello_argv, kill_session, reap_session, write_config
from .conftest import Server

WAIT_MS = 60_000
#: Long enough for the page, which hears every 0.5 s, to see the progress
#: move several times: about 2.5 s a generation on a quiet 2-core machine
#: (56 games at depth 6 with 12-empty endgames; 17 s for the whole run with
#: Ray's start). Shorter runs were seen finish between two updates: depth 2
#: with 8 exact empties, then depth 4 (30 games in 0.16 s, then 56 in 0.2 s).
LIVE_RUN = dict(name="live", population__size=8, games__depth=6, games__exact_empties=12,
                stop__max_generations=5, yardstick__every=1, yardstick__games_per_opponent=2,
                yardstick__depth=1, yardstick__league_double_games=2, cluster__commit_every_seconds=0.1,
                cluster__task_seconds=0.02)


@pytest.fixture
def evolution(tmp_path):
    """`genethello evolve` running in its own session (its own Ray)."""
    home = tmp_path / "home"
    home.mkdir()
    config = write_config(tmp_path, **LIVE_RUN)
    db = tmp_path / "live.db"
    proc = subprocess.Popen(genethello_argv("evolve", "--config", str(config), "--db", str(db), "--workers", "1",
                                            "--quiet"),
                            cwd=tmp_path, env=cli_env(home), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield proc, db
    finally:
        kill_session(proc)
        reap_session(proc.pid)


def test_a_runs_page_follows_a_live_evolution(evolution, browser, page, shots):
    proc, db = evolution
    srv = Server(db)
    try:
        page.goto(srv.url + "#runs")
        page.locator('#run-list li:has-text("live")').wait_for(timeout=WAIT_MS)
        progress = page.locator("#run-progress")
        progress.locator("xpath=self::*[@data-done]").wait_for(timeout=WAIT_MS)
        seen = set()
        deadline = time.monotonic() + 180
        live_shot = False
        while proc.poll() is None and time.monotonic() < deadline:
            text = progress.inner_text()
            seen.add(text)
            if not live_shot and re.search(r"[\d.]+ games/s · ETA \d+ s", text):
                page.screenshot(path=shots / "web-runs-live.png", full_page=True)
                live_shot = True
            time.sleep(0.1)
        assert proc.wait(timeout=60) == 0, proc.stdout.read()
        assert len(seen) >= 3, f"the progress never moved by itself: {seen}"
        page.locator("#run-status:has-text('finished')").wait_for(timeout=10_000)
        assert "Generation 5: 56/56 games" in progress.inner_text()
        for chart in ("#chart-hall", "#chart-elo", "#chart-yard", "#chart-genes"):
            assert page.locator(f"{chart} canvas").count() == 1
        # The top table ranks the hall of fame, as `genethello best` does:
        # generation 1's champion is the anchor, 0 ± 0.
        rows = page.locator("#run-top tr")
        assert 1 <= rows.count() <= 5
        assert "+0 ±0" in page.locator("#run-top").inner_text()
        best = rows.first.locator("td.chrom").inner_text()
        page.screenshot(path=shots / "web-runs.png", full_page=True)

        rows.first.locator('button[data-act="play"]').click()
        page.locator("#view-play.active").wait_for()
        page.locator('#play-board[data-state="human"]').wait_for(timeout=WAIT_MS)
        assert page.locator("#name-white").inner_text() == best

        page.click("#tab-runs")
        page.locator("#stored-game option").first.wait_for(state="attached", timeout=10_000)
        page.click("#stored-replay")
        page.locator("#view-replay.active").wait_for()
        page.locator("#replay-board[data-index='0']").wait_for(timeout=WAIT_MS)
        assert "live generation 5" in page.locator("#replay-title").inner_text()
        page.click("#rp-last")
        assert int(page.locator("#replay-board").get_attribute("data-index")) >= 50
    finally:
        srv.stop()

"""The runs page true for every family and fitness kind (issue 38), in a
real headless chromium, on one database of three real runs (driven by the
serial coordinator: no Ray start):

* ``ga``: a GeneThello run (round robin at depth 1, a hall, a yardstick);
* ``learning``: a pbt-td network run at depth 1 against fixed opponents
  (p_1_10 first: the hall's zero), no League measure, as
  config/search-player.toml is;
* ``stopped``: a GeneThello run whose last generation was left 'playing'
  when it stopped.

Checked: the header says the fitness depth, the hall chart's title names the
one anchor (``reads.rating_anchor``), no empty League measure chart, a
stopped run's line has no ETA and no "playing", a learning run names its
learning games, the operators table is folded, a member's Play button
starts a game against that member (and the next one replaces it), the Play
menu shows W/D/L '–' for networks, and a mistyped name gets the closest
known names in the paste box and in a visible error on "New game".
Screenshots of the GA and learning run pages go to ``shots``.
"""

from __future__ import annotations

import sqlite3

import pytest

from genethello.cluster.db import Database
from genethello.cluster.measures.yardstick import measure
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from ..cluster.conftest import write_config
from .conftest import Server

WAIT_MS = 30_000

GA = dict(name="ga", seed=3, population__type="oe_fmc", population__size=6, games__depth=1,
          stop__max_generations=3, yardstick__every=2, yardstick__games_per_opponent=2, yardstick__depth=1)
LEARNING = dict(name="learning", population__type="all-2-s4", population__size=4, breeding__method="pbt-td",
                breeding__learning_games=8, breeding__learning_batch=4, breeding__learning_max_depth=2,
                fitness__kind="fixed", fitness__opponents=["p_1_10", "wpc"], fitness__games_per_opponent=1,
                fitness__depth=1, fitness__openings="distinct-4", fitness__batch_games=4,
                hall__games_per_member=4, hall__every=1, yardstick__league_double_games=0, stop__max_generations=3)
STOPPED = dict(name="stopped", seed=5, population__type="oe_fmc", population__size=4, stop__max_generations=2)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A server on one database of the three runs (module docstring)."""
    folder = tmp_path_factory.mktemp("families")
    db = folder / "runs.db"
    for i, overrides in enumerate((GA, LEARNING, STOPPED)):
        config = write_config(folder, f"run{i}.toml", **overrides)
        database = Database.open(db, create=True)
        try:
            run_id = create_run(database, load_config(config))
            coordinator = Coordinator(database, run_id, SerialExecutor(0.001), Progress(enabled=False),
                                      yardstick=measure)
            assert coordinator.run() == "finished"
        finally:
            database.dispose()
    with sqlite3.connect(db) as conn:      # as a run stopped in its last generation leaves it
        conn.execute("UPDATE runs SET status = 'stopped' WHERE name = 'stopped'")
        conn.execute("UPDATE generations SET status = 'playing', games_done = games_total - 2 "
                     "WHERE number = 2 AND run_id = (SELECT id FROM runs WHERE name = 'stopped')")
    srv = Server(db)
    try:
        yield srv
    finally:
        srv.stop()


def open_run(page, url: str, name: str) -> None:
    page.goto(url + "#runs")
    page.locator(".tab[data-view='runs']").click()      # the page may be on another view already
    page.locator(f"#run-list li:has-text('{name}')").first.click()
    page.locator(f"#run-name:text-is('{name}')").wait_for(timeout=WAIT_MS)
    page.locator("#run-progress:not(:empty)").wait_for(timeout=WAIT_MS)


def test_a_learning_run_page_says_what_the_run_is(runs, page, shots):
    open_run(page, runs.url, "learning")
    page.locator("#chart-hall canvas").wait_for(timeout=WAIT_MS)
    meta = page.locator("#run-meta").inner_text()
    assert "fixed fitness at depth 1" in meta and "1 ply" not in meta, meta
    assert "pbt-td: 8 learning games a member a generation" in meta, meta
    assert "Elo vs p_1_10 at depth 1" in page.locator("#hall-title").inner_text()
    assert page.locator("#chart-yard").is_hidden()             # no League measure: no empty chart
    assert page.locator("table.top thead th").nth(2).inner_text() == "rating"
    line = page.locator("#run-progress").inner_text()
    assert "ETA" not in line and "playing" not in line and "games/s" not in line, line
    assert "fitness games" in line, line
    ops = page.locator("#operators-box")
    assert ops.evaluate("el => el.tagName") == "DETAILS" and not ops.evaluate("el => el.open")
    page.wait_for_timeout(600)
    page.screenshot(path=str(shots / "web-runs-learning.png"), full_page=True)


def test_a_ga_run_page_and_a_stopped_runs_line(runs, page, shots):
    open_run(page, runs.url, "ga")
    page.locator("#chart-genes canvas").wait_for(timeout=WAIT_MS)
    assert "round robin at depth 1" in page.locator("#run-meta").inner_text()
    assert "Elo vs generation 1's champion at depth 1" in page.locator("#hall-title").inner_text()
    page.locator("#chart-yard canvas").wait_for(timeout=WAIT_MS)      # measured: its chart is drawn
    page.wait_for_timeout(600)
    page.screenshot(path=str(shots / "web-runs-ga.png"), full_page=True)

    # a stored game opened from the list is titled with the list's "#N"
    option = page.locator("#stored-game option").first
    option.wait_for(state="attached", timeout=WAIT_MS)
    number = option.inner_text().split(" ")[0]
    assert number.startswith("#"), number
    page.click("#stored-replay")
    page.locator("#view-replay.active").wait_for(timeout=WAIT_MS)
    page.locator(f"#replay-title:has-text('{number} (game ')").wait_for(timeout=WAIT_MS)
    assert page.locator("#replay-title").inner_text().startswith("ga generation 3, " + number)

    open_run(page, runs.url, "stopped")
    line = page.locator("#run-progress").inner_text()
    assert "stopped" in line and "ETA" not in line and "playing" not in line and "games/s" not in line, line


def test_the_play_button_starts_a_game_against_that_member(runs, page, shots):
    open_run(page, runs.url, "learning")
    rows = page.locator("#run-top tr")
    rows.first.wait_for(timeout=WAIT_MS)
    assert rows.count() >= 2
    texts = [rows.nth(i).locator("td.chrom").inner_text() for i in range(2)]
    assert texts[0] != texts[1]
    for i, text in enumerate(texts):
        if i:
            page.locator(".tab[data-view='runs']").click()
            page.locator("#run-top tr").first.wait_for(timeout=WAIT_MS)
        page.locator("#run-top tr").nth(i).locator("[data-act='play']").click()
        page.locator(f"#name-white:text-is('{text}')").wait_for(timeout=WAIT_MS)
        assert page.locator("#name-black").inner_text() == ""
        page.locator("#play-board[data-state='human']").wait_for(timeout=WAIT_MS)
        assert page.locator(".side-setup[data-colour='white'] .chrom-select").input_value() == text
    # the Play menu's networks keep no W/D/L, as `genethello best` shows them
    info = page.locator(".side-setup[data-colour='white'] .chrom-info").inner_text()
    assert "W/D/L –" in info, info
    page.screenshot(path=str(shots / "web-play-member.png"), full_page=True)


def test_a_mistyped_name_gets_the_closest_names_and_new_game_says_so(runs, page):
    page.goto(runs.url + "#play")
    box = page.locator(".side-setup[data-colour='white']")
    box.locator(".seg button[data-kind='machine']").click()
    box.locator(".chrom-select").select_option("__paste__")
    box.locator(".chrom-text").fill("pbt-td-search")
    error = box.locator(".field-error")
    error.wait_for(state="visible", timeout=WAIT_MS)
    assert "did you mean pbt-td-searcher?" in error.inner_text()
    page.locator("#btn-new").click()
    shown = page.locator("#play-error")
    shown.wait_for(state="visible", timeout=WAIT_MS)
    assert "unknown player 'pbt-td-search'; did you mean pbt-td-searcher?" in shown.inner_text()
    box.locator(".chrom-text").fill("pbt-td-searcher")
    page.locator(".side-setup[data-colour='white'] .field-error").wait_for(state="hidden", timeout=WAIT_MS)
    box.locator(".depth").fill("1")
    page.locator("#btn-new").click()
    page.locator("#name-white:text-is('pbt-td-searcher')").wait_for(timeout=WAIT_MS)   # the name the user chose
    assert page.locator("#play-error").is_hidden()

"""The runs page's lineage (issue 25 §2): the best so far's family tree and
which operators pay, over real HTTP from `genethello serve`, and in a real
headless chromium: the tree shows, and a click on a node selects its row
in the players table (an ancestor the top ten lack gets a row of its own)."""

from __future__ import annotations

import json
import math

import pytest

from genethello.cluster.db import Database
from genethello.cluster.reads import best
from genethello.cluster.run.coordinator import Coordinator, create_run
from genethello.cluster.run.executors import SerialExecutor
from genethello.cluster.run.progress import Progress
from genethello.cluster.run.run_check import load_config

from ..cluster.conftest import write_config
from .conftest import Server, get_status

WAIT_MS = 30_000
#: Five generations of eight: 40 slots, more players than the top ten.
RUN = dict(name="tree", seed=5, population__size=8, stop__max_generations=5)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A server on a finished small GA run; (server, the best's id)."""
    folder = tmp_path_factory.mktemp("lineage")
    db_path = folder / "tree.db"
    db = Database.open(db_path, create=True)
    try:
        run_id = create_run(db, load_config(write_config(folder, **RUN)))
        assert Coordinator(db, run_id, SerialExecutor(0.001), Progress(enabled=False)).run() == "finished"
        best_id = best(db, run_id).player_id
    finally:
        db.dispose()
    srv = Server(db_path)
    try:
        yield srv, best_id
    finally:
        srv.stop()


def nodes(tree: dict) -> list[dict]:
    return [tree, *(n for p in tree["parents"] for n in nodes(p))]


def test_the_lineage_endpoint(served):
    srv, best_id = served
    status, body = get_status(srv.port, "/api/runs/1/lineage")
    assert status == 200
    data = json.loads(body)
    tree = data["best"]
    assert tree["id"] == best_id and data["depth"] == 4
    for node in nodes(tree):
        assert node["origin"] in ("elite", "reentered", "crossover", "mutant", "duplicate-mutated", "random")
        # parents were members of an earlier generation than the child's first
        assert all(p["generation"] < node["generation"] for p in node["parents"])
        assert node["how"] and node["birth"] >= 1
        if node["origin"] == "random":
            assert node["birth"] == 1 and node["parents"] == []
    ops = data["operators"]
    assert ops["top_fraction"] == 0.25 and [g["generation"] for g in ops["generations"]] == [1, 2, 3, 4, 5]
    for g in ops["generations"]:
        assert sum(c[0] for c in g["counts"].values()) == 8
        assert g["top_size"] == math.ceil(8 / 4) == sum(c[1] for c in g["counts"].values())
    assert ops["generations"][0]["counts"] == {"random": [8, 2]}
    assert sum(c[0] for c in ops["totals"].values()) == 40 and set(ops["kinds"]) == set(ops["totals"])
    assert get_status(srv.port, "/api/runs/7/lineage")[0] == 404
    assert get_status(srv.port, "/api/runs/x/lineage")[0] == 400


def test_the_tree_shows_and_a_click_selects_the_row(served, page, shots):
    srv, best_id = served
    page.goto(srv.url + "#runs")
    page.locator(f"#lineage-tree button.node[data-player='{best_id}']").wait_for(timeout=WAIT_MS)
    page.locator("#operators tbody tr").first.wait_for(state="attached", timeout=WAIT_MS)
    assert not page.locator("#operators-box").evaluate("el => el.open")     # folded: one row a generation
    page.locator("#operators-box summary").click()
    page.locator("#operators tbody tr").first.wait_for(timeout=WAIT_MS)
    assert page.locator("#operators tbody tr").count() == 5
    assert "top 25%" in page.locator("#operators-note").inner_text()

    # An ancestor that two lines share is drawn once with its ancestors, then named.
    expanded = page.locator("#lineage-tree li:has(> ul) > button.node").evaluate_all(
        "bs => bs.map(b => b.dataset.player)")
    assert len(expanded) == len(set(expanded)) and expanded[0] == str(best_id)
    named = page.locator("#lineage-tree li:has-text('drawn above') > button.node").evaluate_all(
        "bs => bs.map(b => b.dataset.player)")
    assert named and set(named) <= set(expanded)

    page.click(f"#lineage-tree button.node[data-player='{best_id}']")
    row = page.locator(f"#run-top tr[data-player='{best_id}']")
    assert "selected" in row.get_attribute("class")
    assert page.locator("#run-top tr.selected").count() == 1

    # an ancestor that is not among the top players gets a row, selected
    top = set(page.locator("#run-top tr").evaluate_all("rows => rows.map(r => r.dataset.player)"))
    ids = page.locator("#lineage-tree button.node").evaluate_all("bs => bs.map(b => b.dataset.player)")
    missing = [i for i in ids if i not in top]
    assert missing, "every ancestor is a top player: the run is too small to test this"
    page.click(f"#lineage-tree button.node[data-player='{missing[0]}']")
    row = page.locator(f"#run-top tr[data-player='{missing[0]}']")
    row.wait_for(timeout=WAIT_MS)
    assert "selected" in row.get_attribute("class") and "ancestor" in row.get_attribute("class")
    assert row.locator("td").first.inner_text() == "anc."
    assert page.locator(f"#lineage-tree button.node.on[data-player='{missing[0]}']").count() >= 1
    page.screenshot(path=shots / "web-runs-lineage.png", full_page=True)

"""The runs page of a finished tiny network run, in a real headless
chromium: the family's chart of the best (the tuple classes' shares of the
evaluation range and the weights' scale, not a line a weight), the League
measure per opponent, performance ratings, and champions (CMA-ES's
distribution means) shown without an Elo or W/D/L they never played."""

from __future__ import annotations

import pytest

from ..cluster.conftest import run_cli
from ..cluster.test_network_reports import write_network_config
from .conftest import Server

WAIT_MS = 30_000


@pytest.fixture(scope="module")
def network_server(tmp_path_factory):
    """A server on a finished tiny network run."""
    folder = tmp_path_factory.mktemp("netpage")
    (folder / "home").mkdir()
    done = run_cli("evolve", "--config", str(write_network_config(folder)), "--db", str(folder / "net.db"),
                   "--workers", "1", "--quiet", home=folder / "home", cwd=folder, timeout=180)
    assert done.returncode == 0, done.stderr
    srv = Server(folder / "net.db")
    try:
        yield srv
    finally:
        srv.stop()


def test_the_run_page_of_a_network_run(network_server, page, shots):
    page.goto(network_server.url + "#runs")
    page.locator("#run-status:has-text('finished')").wait_for(timeout=WAIT_MS)
    page.locator("#chart-genes canvas").wait_for(timeout=WAIT_MS)

    labels = page.locator("#chart-genes .u-legend tr.u-series .u-label").all_inner_texts()
    assert labels == ["generation", "2-tuple corner share %", "2-tuple edge share %", "2-tuple inner share %",
                      "L2 norm of the real weights"], labels
    values = page.locator("#chart-genes .u-legend tr.u-series:visible .u-value").all_inner_texts()
    assert values[0] == "6" and "--" not in values, values
    assert abs(sum(float(v) for v in values[1:4]) - 100) < 0.1, values
    assert page.locator("#chart-genes .u-axis").count() == 3          # x, shares, scale
    assert "tuple class" in page.locator("#genes-title").inner_text()
    assert "Performance rating" in page.locator("#elo-title").inner_text()
    assert "fixed fitness at 1 ply" in page.locator("#run-meta").inner_text()

    yard = page.locator("#chart-yard .u-legend tr.u-series .u-label").all_inner_texts()
    assert yard == ["generation", "othello-league-fast"], yard

    rows = page.locator("#run-top tr")
    assert rows.count() >= 2
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[2] == "– (mean)" and cells[3] == "–" and "(mean)" in cells[4], cells
        assert cells[6].startswith("all-2_"), cells
    page.wait_for_timeout(800)          # the progress bar's transition, for the picture
    page.screenshot(path=str(shots / "web-runs-network.png"), full_page=True)

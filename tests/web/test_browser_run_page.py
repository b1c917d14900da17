"""The runs page of a small finished run, in a real headless chromium:
legends that show the last values before any hover, the hall's interval as
a band, gene lines each in a colour of its own with the phase bounds on an
axis of their own, a finished generation's average rate, stored games
numbered from #1, and the Play menu labelled by the hall rating that ranks
it."""

from __future__ import annotations

import pytest

from ..cluster.conftest import run_cli, write_config
from .conftest import Server

WAIT_MS = 30_000
#: Eight generations of eight in a few seconds; with this seed the best so
#: far changes twice (generations 2 and 6), so its hall interval is a band.
DEMO_RUN = dict(name="demo", seed=3, population__type="oe_fdmxcr", population__size=8, games__depth=2,
                stop__max_generations=8, yardstick__every=2, yardstick__games_per_opponent=2, yardstick__depth=1)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A server on a finished small run."""
    folder = tmp_path_factory.mktemp("demo")
    (folder / "home").mkdir()
    config = write_config(folder, **DEMO_RUN)
    done = run_cli("evolve", "--config", str(config), "--db", str(folder / "demo.db"), "--workers", "1", "--quiet",
                   home=folder / "home", cwd=folder, timeout=300)
    assert done.returncode == 0, done.stderr
    srv = Server(folder / "demo.db")
    try:
        yield srv
    finally:
        srv.stop()


def legend_values(page, chart: str) -> list[str]:
    """The values of a chart's visible legend entries."""
    return page.locator(f"#chart-{chart} .u-legend tr.u-series:visible .u-value").all_inner_texts()


def test_the_run_page_of_a_finished_run(finished, page, shots):
    page.goto(finished.url + "#runs")
    page.locator("#run-status:has-text('finished')").wait_for(timeout=WAIT_MS)
    page.locator("#chart-genes canvas").wait_for(timeout=WAIT_MS)
    page.locator("#stored-game option").first.wait_for(state="attached", timeout=WAIT_MS)

    progress = page.locator("#run-progress").inner_text()
    assert "Generation 8: 56/56 games" in progress
    assert "– games/s" not in progress and "games/s on average" in progress, progress

    # Legends show the last generation's values without a hover...
    for chart in ("hall", "elo", "yard", "genes"):
        values = legend_values(page, chart)
        assert values and "--" not in values, f"{chart}: {values}"
        assert values[0] == "8", f"{chart}: {values}"
    # ... and again once the pointer has left the chart.
    box = page.locator("#chart-elo .u-over").bounding_box()
    page.mouse.move(box["x"] + 5, box["y"] + box["height"] / 2)
    assert legend_values(page, "elo")[0] == "1"
    page.mouse.move(5, 5)
    assert legend_values(page, "elo")[0] == "8"

    # The hall: one legend entry, the rating with its interval; the interval's
    # edges are drawn as a band, not listed as lines of their own.
    hall = page.locator("#chart-hall .u-legend tr.u-series:visible")
    assert hall.count() == 2 and "[95%:" in hall.nth(1).inner_text()
    # The Elo chart: generation's best and mean only (Elo is relative to each
    # population; the best so far is followed by its hall rating).
    assert page.locator("#chart-elo .u-legend tr.u-series .u-label").all_inner_texts() \
        == ["generation", "generation's best", "mean"]

    # Genes: a colour each; o and e on an axis of their own (x + 2 y axes).
    markers = page.locator("#chart-genes .u-legend tr.u-series .u-marker")
    strokes = [markers.nth(i).evaluate("m => getComputedStyle(m).borderColor") for i in range(1, markers.count())]
    assert len(strokes) == 20 and len(set(strokes)) == len(strokes), strokes
    assert page.locator("#chart-genes .u-axis").count() == 3

    assert page.locator("#stored-game option").first.inner_text().startswith("#1 ")
    page.screenshot(path=shots / "web-runs-finished.png", full_page=True)

    page.click("#tab-play")
    menu = page.locator('.side-setup[data-colour="white"] .chrom-select option')
    menu.first.wait_for(state="attached", timeout=WAIT_MS)
    first = menu.first.inner_text()
    assert first.startswith("#1  hall ") and "Elo" not in first, first
    assert page.locator('.side-setup[data-colour="white"] .chrom-info').inner_text().startswith("hall rating ")

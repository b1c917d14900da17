"""The web page's two latencies, measured in a real headless chromium:

1. click to the machine's reply: a person plays the run's best player
   (what `genethello best` ranks first, the Play menu's first choice) at
   depth 6; the time from the click on a square to the board showing the
   machine's move, for 20 moves (median; target < 0.3 s). Baseline in the
   same run: the engine alone (Searcher.search at depth 6 on the same
   positions, in this process), so the table shows what the web adds.
2. commit to dashboard: a small real evolution runs; each count of games
   committed to the database (read every 10 ms) against the moment the runs
   page shows it (read every 10 ms) (median, max; target < 2 s).

    python benchmarks/bench_web.py [--db RUN.db] [--moves 20]

Without --db a small evolution is run first to have a best player.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
RUN_TOML = """name = "{name}"
seed = 3
[population]
type = "oe_fmc"
size = {size}
[games]
depth = {depth}
exact_empties = 8
random_plies = 2
tt_bits = 12
[stop]
max_generations = {generations}
converge_generations = 0
[yardstick]
every = 0
[storage]
keep_moves_generations = 0
[cluster]
task_seconds = 0.05
commit_every_seconds = 0.2
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "genethello.cluster.cli.main", *args]


def start(argv: list[str], home: Path, log: Path) -> subprocess.Popen:
    env = dict(os.environ, HOME=str(home), PYTHONUNBUFFERED="1")
    env.pop("RAY_ADDRESS", None)
    with log.open("w") as out:
        return subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def serve(db: Path, home: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = home / f"serve-{port}.log"
    proc = start(cli("serve", "--db", str(db), "--port", str(port)), home, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/status")
            if conn.getresponse().status == 200:
                return proc, f"http://127.0.0.1:{port}/"
        except OSError:
            pass
        time.sleep(0.1)
    stop(proc)
    raise SystemExit(f"bench_web: genethello serve did not start: {log.read_text()[-800:]}")


def evolve(folder: Path, name: str, size: int, depth: int, generations: int) -> subprocess.Popen:
    config = folder / f"{name}.toml"
    config.write_text(RUN_TOML.format(name=name, size=size, depth=depth, generations=generations))
    return start(cli("evolve", "--config", str(config), "--db", str(folder / f"{name}.db"), "--workers", "1",
                     "--quiet"), folder, folder / f"{name}.log")


def click_to_reply(browser, url: str, moves: int) -> tuple[list[float], list[float], list[float], str]:
    """Seconds from click to reply for ``moves`` moves, as Playwright sees
    them and as the page measures them (click handler to reply drawn); the
    engine-alone seconds on the same positions; the machine's chromosome."""
    from genethello.core.engine.board import Board
    from genethello.core.engine.search import Searcher
    from genethello.core.evaluation.evaluation import Evaluator
    from genethello.core.families.chromosome import Chromosome
    from genethello.core.records import read_record

    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(url)
    page.locator('.side-setup[data-colour="white"] .chrom-select optgroup option').first.wait_for(state="attached")
    slider = page.locator('.side-setup[data-colour="white"] .depth')
    slider.focus()
    for _ in range(15):
        page.keyboard.press("ArrowLeft")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert slider.input_value() == "6"
    times: list[float] = []
    in_page: list[float] = []
    positions: list[str] = []
    while len(times) < moves:
        page.click("#btn-new")
        while len(times) < moves:
            page.locator('#play-board[data-state="human"], #play-board[data-state="over"]').wait_for(timeout=60_000)
            if page.locator("#play-board").get_attribute("data-state") == "over":
                break
            plies = page.locator("#play-board").get_attribute("data-plies")
            cell = page.locator("#play-board .cell.legal").first
            t0 = time.perf_counter()
            cell.click()
            page.locator(f'#play-board[data-state="human"]:not([data-plies="{plies}"]), '
                         f'#play-board[data-state="over"]').wait_for(timeout=60_000)
            times.append(time.perf_counter() - t0)
            reply_ms = page.locator("#play-board").get_attribute("data-reply-ms")
            if reply_ms is not None:
                in_page.append(float(reply_ms) / 1000)
            page.locator("#play-board").evaluate("(el) => { delete el.dataset.replyMs; }")
        with page.expect_download() as download:
            page.click("#btn-sgf")
        positions.append(download.value.path().read_text())
    chromosome = page.locator("#name-white").inner_text()
    page.close()
    engine = Searcher(Evaluator.from_chromosome(Chromosome.parse(chromosome)), tt_bits=18)
    alone: list[float] = []
    for text in positions:
        record = read_record(text, "sgf")[0]
        board = Board()
        for move in record.moves:
            if board.side_to_move == "white" and len(alone) < moves and not board.must_pass():
                t0 = time.perf_counter()
                engine.search(board, depth=6, exact_empties=14)
                alone.append(time.perf_counter() - t0)
            board.play(move)
    return times, in_page, alone, chromosome


def commit_to_dashboard(browser, folder: Path) -> list[float]:
    """Seconds from a games count committed to the runs page showing it."""
    proc = evolve(folder, "live", size=10, depth=4, generations=3)
    db = folder / "live.db"
    server, url = serve(db, folder)
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    committed: dict[tuple, float] = {}
    shown: dict[tuple, float] = {}
    try:
        page.goto(url + "#runs")
        deadline = time.monotonic() + 180
        while proc.poll() is None and time.monotonic() < deadline:
            now = time.monotonic()
            if db.exists():
                try:
                    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=1)
                    row = conn.execute("SELECT number, games_done FROM generations ORDER BY number DESC LIMIT 1"
                                       ).fetchone()
                    conn.close()
                    if row:
                        committed.setdefault(tuple(row), now)
                except sqlite3.Error:
                    pass
            text = page.locator("#run-progress").all_inner_texts()
            match = re.match(r"Generation (\d+): (\d+)/", text[0]) if text else None
            if match:
                shown.setdefault((int(match.group(1)), int(match.group(2))), time.monotonic())
            time.sleep(0.01)
    finally:
        page.close()
        stop(server)
        stop(proc)
    if proc.returncode not in (0, -signal.SIGTERM):
        print(f"bench_web: the live evolution failed: {(folder / 'live.log').read_text()[-800:]}", file=sys.stderr)
    return [shown[k] - committed[k] for k in committed if k in shown and k[1] > 0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="a run database whose best player to play (default: evolve one)")
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        folder = Path(tmp)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        db = args.db
        if db is None:
            proc = evolve(folder, "best", size=10, depth=3, generations=4)
            if proc.wait() != 0:
                raise SystemExit(f"bench_web: the evolution failed: {(folder / 'best.log').read_text()[-800:]}")
            db = folder / "best.db"
        server, url = serve(db, folder)
        try:
            times, in_page, alone, chromosome = click_to_reply(browser, url, args.moves)
        finally:
            stop(server)
        lags = commit_to_dashboard(browser, folder)
        browser.close()

    def ms(values: list[float], f) -> str:
        return f"{1000 * f(values):8.1f}" if values else "       -"

    p90 = lambda v: sorted(v)[int(0.9 * (len(v) - 1))]
    print(f"machine: {chromosome} at depth 6 (exact 14)")
    print(f"{'measure':<44} {'n':>4} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
    print(f"{'click to reply, Playwright click to reply seen':<44} {len(times):>4} "
          f"{ms(times, statistics.median):>10} {ms(times, p90):>8} {ms(times, max):>8}")
    print(f"{'click to reply, in the page (handler to drawn)':<44} {len(in_page):>4} "
          f"{ms(in_page, statistics.median):>10} {ms(in_page, p90):>8} {ms(in_page, max):>8}")
    print(f"{'  baseline: the engine alone, same positions':<44} {len(alone):>4} "
          f"{ms(alone, statistics.median):>10} {ms(alone, p90):>8} {ms(alone, max):>8}")
    print(f"{'commit to dashboard (runs page)':<44} {len(lags):>4} {ms(lags, statistics.median):>10} "
          f"{ms(lags, p90):>8} {ms(lags, max):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

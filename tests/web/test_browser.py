"""The page in a real headless chromium: a person's whole game against the
machine by clicks, the SGF download, replays of the repository's samples and
of a malformed upload, and a page that keeps answering while another tab's
long search runs."""

from __future__ import annotations

import json
import time

from genethello.core.records import read_record, write_transcript

from .conftest import EXAMPLE_CHROMOSOME, get_status

WAIT_MS = 30_000


def settle(page) -> str:
    """Wait until a person is to move or the game is over; which of the two."""
    page.locator('#play-board[data-state="human"], #play-board[data-state="over"]').wait_for(timeout=WAIT_MS)
    return page.locator("#play-board").get_attribute("data-state")


def set_depth(page, colour: str, depth: int) -> None:
    slider = page.locator(f'.side-setup[data-colour="{colour}"] .depth')
    slider.focus()
    for _ in range(15):
        page.keyboard.press("ArrowLeft")
    for _ in range(depth - 1):
        page.keyboard.press("ArrowRight")
    assert slider.input_value() == str(depth)


def test_a_persons_whole_game_against_the_machine(server, page, shots):
    page.goto(server.url)
    set_depth(page, "white", 2)
    page.click("#btn-new")
    clicked = []
    while settle(page) == "human":
        legal = page.locator("#play-board .cell.legal")
        square = legal.nth(len(clicked) % legal.count()).get_attribute("data-square")
        plies = int(page.locator("#play-board").get_attribute("data-plies"))
        page.click(f'#play-board .cell[data-square="{square}"]')
        page.locator(f'#play-board:not([data-plies="{plies}"])').wait_for(timeout=WAIT_MS)
        clicked.append(square)
        if len(clicked) == 8 and settle(page) == "human":
            page.click("#btn-hint")               # the engine's top moves, scored on the board
            page.locator("#hint-list").wait_for(state="visible", timeout=WAIT_MS)
            assert page.locator("#play-board .hint-score").count() >= 1
            page.wait_for_timeout(400)            # the discs' flip animation
            page.screenshot(path=shots / "web-play-midgame.png")
    assert len(clicked) >= 10
    assert page.locator("#play-banner").is_visible()
    page.wait_for_timeout(400)
    page.screenshot(path=shots / "web-play-end.png")

    with page.expect_download() as download:
        page.click("#btn-sgf")
    record = read_record(download.value.path().read_text(), "sgf")[0]
    assert record.black_name == "Human" and record.white_chromosome == EXAMPLE_CHROMOSOME
    board = record.replay()
    assert board.is_game_over()
    black_moves = [m for i, m in enumerate(board.history) if i % 2 == 0 and m != 64]
    assert [f"{'abcdefgh'[m % 8]}{m // 8 + 1}" for m in black_moves] == clicked
    shown = page.locator("#transcript li").all_inner_texts()
    assert shown == write_transcript(record).splitlines()
    black, white = board.disc_count()
    assert page.locator("#count-black").inner_text() == str(black)
    assert page.locator("#count-white").inner_text() == str(white)
    assert record.result in page.locator("#play-banner").inner_text()


def test_replay_of_a_sample_and_a_malformed_upload(server, page, shots, data_dir):
    page.goto(server.url + "#replay")
    sample = data_dir / "formats" / "sgf" / "converted_woc2007-final-game1_letterdigit.sgf"
    record = read_record(sample)[0]
    frames = len(record.normalized().moves)
    page.set_input_files("#replay-file", str(sample))
    page.locator("#replay-board[data-index='0']").wait_for(timeout=WAIT_MS)
    assert page.locator("#replay-title").inner_text().startswith(sample.name)
    for _ in range(3):
        page.click("#rp-next")
    assert page.locator("#replay-board").get_attribute("data-index") == "3"
    assert "Move 3 of" in page.locator("#replay-status").inner_text()
    page.click("#rp-last")
    assert page.locator("#replay-board").get_attribute("data-index") == str(frames)
    final = record.replay()
    assert page.locator("#replay-count-black").inner_text() == str(final.disc_count()[0])
    page.click("#rp-first")
    page.click("#rp-play")                      # let it play: it moves on by itself
    page.locator("#replay-board:not([data-index='0'])").wait_for(timeout=5000)
    page.screenshot(path=shots / "web-replay.png")

    page.set_input_files("#replay-file", files=[{"name": "broken.sgf", "mimeType": "application/x-go-sgf",
                                                 "buffer": b"(;GM[2]FF[4]SZ[8];B[f5];W[q9])"}])
    error = page.locator("#replay-error")
    error.wait_for(state="visible", timeout=WAIT_MS)
    assert "broken.sgf: line 1" in error.inner_text()


def test_the_page_answers_while_another_tab_searches_deep(server, browser, page):
    other = browser.new_context().new_page()
    other.goto(server.url)
    other.click('.side-setup[data-colour="black"] .seg button[data-kind="machine"]')
    other.click('.side-setup[data-colour="white"] .seg button[data-kind="human"]')
    # A long search: an hour on the clock gives the machine's first move about
    # two minutes (depth 15 from the opening takes only ~1 s on a quiet machine).
    other.check('input[name="limit"][value="time"]')
    other.fill("#seconds", "3600")
    other.click("#btn-new")
    other.locator('#play-board[data-thinking="1"]').wait_for(timeout=WAIT_MS)
    games_before = json.loads(get_status(server.port)[1])["games"]

    page.goto(server.url)
    set_depth(page, "white", 4)
    page.click("#btn-new")
    replies = []
    for _ in range(4):
        if settle(page) != "human":
            break
        plies = int(page.locator("#play-board").get_attribute("data-plies"))
        t0 = time.monotonic()
        page.locator("#play-board .cell.legal").first.click()
        page.locator(f'#play-board[data-state="human"]:not([data-plies="{plies}"]), '
                     f'#play-board[data-state="over"]').wait_for(timeout=WAIT_MS)
        replies.append(time.monotonic() - t0)
    assert other.locator("#play-board").get_attribute("data-thinking") == "1"   # still searching
    assert max(replies) < 3.0, f"replies took {replies} s while the other tab searched"

    other.context.close()                 # the tab goes: its game closes and its search stops
    deadline = time.monotonic() + 5
    while json.loads(get_status(server.port)[1])["games"] >= games_before + 1:
        assert time.monotonic() < deadline, "the closed tab's game is still open"
        time.sleep(0.05)


def test_machine_against_machine_and_the_clocks(server, page):
    page.goto(server.url)
    page.click('.side-setup[data-colour="black"] .seg button[data-kind="machine"]')
    set_depth(page, "black", 1)
    set_depth(page, "white", 1)
    page.select_option("#pace", "0")
    page.click("#btn-new")
    page.locator('#play-board[data-state="over"]').wait_for(timeout=WAIT_MS)
    plies = int(page.locator("#play-board").get_attribute("data-plies"))
    lines = page.locator("#transcript li").count()
    assert plies > 50 and lines == (plies + 1) // 2
    assert page.locator("#setup").get_attribute("open") is None          # folded away to watch

    page.click("#setup summary")
    page.click('.side-setup[data-colour="black"] .seg button[data-kind="human"]')
    page.check('input[name="limit"][value="time"]')
    page.fill("#seconds", "30")
    page.click("#btn-new")
    settle(page)
    clock = page.locator("#clock-black")
    clock.wait_for(state="visible", timeout=WAIT_MS)   # the new game's first answer shows the clocks
    assert page.locator("#clock-white").inner_text() == "0:30"
    first = clock.inner_text()
    page.wait_for_timeout(1200)
    assert clock.inner_text() != first and "running" in clock.get_attribute("class")
    page.locator("#play-board .cell.legal").first.click()
    page.locator('#play-board[data-state="human"][data-plies="2"]').wait_for(timeout=WAIT_MS)
    white_left = page.locator("#clock-white").inner_text()
    assert white_left <= "0:30" and "running" in clock.get_attribute("class")

"""What the board and the transcript show at a glance, in a real headless
chromium: every transcript line visible with the current one scrolled into
the box (Play and Replay), the side to move marked on the board's frame and
its player card, and legal-move dots at a WCAG contrast of 3:1 or more
against every colour of the felt."""

from __future__ import annotations

import re

from .test_browser import WAIT_MS, set_depth

#: WCAG 2's minimum contrast for graphics that carry meaning (1.4.11).
MIN_CONTRAST = 3.0


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG relative luminance of an sRGB colour (0..255 channels)."""
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def colours(css: str) -> list[tuple[float, ...]]:
    """Every rgb()/rgba() colour in a computed CSS value, as (r, g, b, alpha)."""
    found = []
    for match in re.finditer(r"rgba?\(([^)]*)\)", css):
        parts = [float(p) for p in match.group(1).replace("/", ",").replace(" ", ",").split(",") if p]
        found.append(tuple(parts[:3]) + ((parts[3],) if len(parts) > 3 else (1.0,)))
    return found


def over(top: tuple[float, ...], under: tuple[float, ...]) -> tuple[float, float, float]:
    """``top`` (with its alpha) composited over the opaque ``under``."""
    alpha = top[3]
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top[:3], under[:3]))


def test_the_wcag_formula_on_known_pairs():
    assert round(contrast((0, 0, 0), (255, 255, 255)), 2) == 21.0
    assert round(contrast((255, 243, 196), (42, 148, 87)), 2) == 3.45      # the CSS comment's figures
    assert round(contrast((255, 243, 196), (23, 96, 58)), 2) == 6.81


def assert_all_lines_visible(page, box: str) -> None:
    """Every line of the transcript ``box`` lies within the box's width (no
    hidden column) and the current line within its visible area."""
    ol = page.locator(box).bounding_box()
    lines = page.locator(f"{box} li")
    assert lines.count() >= 20
    for i in range(lines.count()):
        b = lines.nth(i).bounding_box()
        assert ol["x"] - 1 <= b["x"] and b["x"] + b["width"] <= ol["x"] + ol["width"] + 1, \
            f"line {i + 1} ({lines.nth(i).inner_text()}) lies outside the box: {b} vs {ol}"
    cur = page.locator(f"{box} li.current").bounding_box()
    assert ol["y"] - 1 <= cur["y"] and cur["y"] + cur["height"] <= ol["y"] + ol["height"] + 1, \
        f"the current line is scrolled out of view: {cur} vs {ol}"


def test_play_transcript_side_to_move_and_legal_dots(server, page):
    page.goto(server.url)
    set_depth(page, "white", 1)
    page.click("#btn-new")
    page.locator('#play-board[data-state="human"]').wait_for(timeout=WAIT_MS)

    # The side to move: on the frame (its colour and a flag) and its card.
    assert "turn-black" in page.locator("#view-play .board-wrap").get_attribute("class")
    flag = page.locator("#view-play .turn-flag")
    assert flag.is_visible() and flag.inner_text() == "Black to move"
    assert "to-move" in page.locator("#card-black").get_attribute("class")
    assert "to-move" not in page.locator("#card-white").get_attribute("class")

    # Legal-move dots against each colour of the felt.
    dot = page.evaluate("getComputedStyle(document.querySelector('#play-board .cell.legal'), '::before')"
                        ".backgroundColor")
    felt = colours(page.evaluate("getComputedStyle(document.querySelector('#play-board')).backgroundImage"))
    assert len(felt) >= 3, felt
    ratios = [contrast(over(colours(dot)[0], f), f[:3]) for f in felt]
    assert min(ratios) >= MIN_CONTRAST, f"legal-move dots {dot} on the felt {felt}: contrast {ratios}"

    # A whole game machine against machine: every transcript line visible,
    # the last one (the current move) in view.
    page.click('.side-setup[data-colour="black"] .seg button[data-kind="machine"]')
    set_depth(page, "black", 1)
    page.select_option("#pace", "0")
    page.click("#btn-new")
    page.locator('#play-board[data-state="over"]').wait_for(timeout=WAIT_MS)
    assert int(page.locator("#play-board").get_attribute("data-plies")) >= 40
    assert_all_lines_visible(page, "#transcript")
    assert page.locator("#transcript li").last.get_attribute("class") == "current"
    assert page.locator("#view-play .turn-flag").is_hidden()          # over: nobody to move


def test_replay_transcript_follows_the_move(server, page, shots, data_dir):
    page.goto(server.url + "#replay")
    sample = data_dir / "formats" / "sgf" / "converted_woc2007-final-game1_letterdigit.sgf"
    page.set_input_files("#replay-file", str(sample))
    page.locator("#replay-board[data-index='0']").wait_for(timeout=WAIT_MS)
    for index in (58, 22, 41):
        page.evaluate(f"(() => {{ const s = document.querySelector('#rp-slider'); s.value = {index}; "
                      "s.dispatchEvent(new Event('input')); })()")
        page.locator(f"#replay-board[data-index='{index}']").wait_for(timeout=WAIT_MS)
        assert page.locator("#replay-transcript li.current").inner_text().startswith(f"{(index + 1) // 2}. ")
        assert_all_lines_visible(page, "#replay-transcript")
    to_move = page.locator("#view-replay .turn-flag")
    assert to_move.is_visible() and to_move.get_attribute("data-colour") in ("black", "white")
    page.wait_for_timeout(400)
    page.screenshot(path=shots / "web-replay.png")

"""Progress without a terminal (a log file, CI, a pipe): a line every
``interval`` seconds inside a generation and one at its end with the rate
of the games actually played, never a line after the first few games.
The reporter runs in a real subprocess whose output is a pipe."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys, time
    from genethello.cluster.run.progress import Progress

    progress = Progress(stream=sys.stdout, interval=0.5)
    assert not progress.live
    progress.start_generation(1, 20, 0, "x")
    for _ in range(20):            # 20 games in about 2 s: 10 games/s
        time.sleep(0.1)
        progress.advance(1)
    progress.start_generation(2, 100, 60, "x")   # resumed: 60 already played
    for _ in range(4):
        progress.advance(10)       # 40 games at once: far more than 10 games/s
    progress.message("generation 2 rated")
""")


def test_plain_lines_come_every_interval_and_at_the_end_of_a_generation():
    # capture_output: stdout and stderr are pipes, not a terminal.
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    first = [ln for ln in lines if ln.startswith("generation 1:")]
    # Inside: a line about every 0.5 s (2 s in all), none after the first games.
    inside = [re.fullmatch(r"generation 1: (\d+)/20 games, ([\d.]+) games/s, ETA (\d+) s", ln) for ln in first[:-1]]
    assert 2 <= len(inside) <= 5 and all(inside), lines
    assert int(inside[0][1]) >= 4, lines
    # The end: the real rate over the whole generation.
    end = re.fullmatch(r"generation 1: 20/20 games in ([\d.]+) s, ([\d.]+) games/s", first[-1])
    assert end, lines
    assert 1.9 <= float(end[1]) < 4 and 5 < float(end[2]) <= 10.6, lines
    # A resumed generation: one line, at its end, counting only the games played here.
    second = [ln for ln in lines if ln.startswith("generation 2:")]
    assert len(second) == 1 and second[0].startswith("generation 2: 100/100 games in "), lines
    assert lines[-1] == "generation 2 rated"

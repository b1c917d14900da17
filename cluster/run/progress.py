"""Progress of a generation's tournament: a live bar on a terminal, plain
lines otherwise (logs, CI, nohup), and the same lines in the run's log file.

Without a terminal a line comes every ``interval`` seconds inside a long
generation and once at its end, with the rate measured over the games this
process played (a line after the first few games would report the start-up
rate of a generation not yet under way)."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any, TextIO

from genethello.core.frontend.wording import duration, rate

log = logging.getLogger("genethello.progress")


class Progress:
    """Reports games done/total, games/s, ETA and the current best.

    Args:
        stream: where the bar or lines go (stderr by default).
        interval: seconds between plain lines inside a generation when not
            on a terminal (the end of a generation always gets one).
        enabled: False silences it (tests, benchmarks).
    """

    def __init__(self, stream: TextIO | None = None, interval: float = 30.0, enabled: bool = True) -> None:
        self.stream = stream or sys.stderr
        self.interval = interval
        self.enabled = enabled
        self.live = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self._bar: Any = None    # a tqdm bar while one is shown
        self._last_line = 0.0
        self._start = 0.0
        self._start_done = 0
        self.generation = 0
        self.total = 0
        self.done = 0

    def start_generation(self, generation: int, total: int, done: int, best: str) -> None:
        self.generation, self.total, self.done = generation, total, done
        self._start, self._start_done = time.monotonic(), done
        self._last_line = self._start
        if self.live:
            from tqdm import tqdm

            self.close()
            self._bar = tqdm(total=total, initial=done, desc=f"generation {generation}", unit="game",
                             file=self.stream, dynamic_ncols=True, smoothing=0.1)
            self._bar.set_postfix_str(f"best {best}")
        log.info("generation %d: %d of %d games already played; best so far %s", generation, done, total, best)

    def advance(self, games: int) -> None:
        self.done += games
        if self._bar is not None:
            self._bar.update(games)
            return
        if not self.enabled:
            return
        now = time.monotonic()
        if self.done >= self.total or now - self._last_line >= self.interval:
            self._last_line = now
            print(self.line(), file=self.stream, flush=True)

    def line(self) -> str:
        """'generation 3: 200/552 games, 40.1 games/s, ETA 9 s' inside a
        generation; 'generation 3: 552/552 games in 13.8 s, 40.0 games/s'
        at its end."""
        elapsed = time.monotonic() - self._start
        played = self.done - self._start_done
        speed = rate(played, elapsed, "games")
        if self.done >= self.total:
            return f"generation {self.generation}: {self.done}/{self.total} games in {duration(elapsed)}, {speed}"
        per_second = played / elapsed if elapsed > 0 else 0.0
        eta = f"{(self.total - self.done) / per_second:.0f} s" if per_second > 0 else "?"
        return f"generation {self.generation}: {self.done}/{self.total} games, {speed}, ETA {eta}"

    def message(self, text: str) -> None:
        log.info(text)
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.write(text)
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

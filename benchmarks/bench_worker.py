#!/usr/bin/env python3
"""One build of the core answering a benchmark's requests (see baseline_build.py).

Started with PYTHONPATH naming the build; reads one JSON request a line from
stdin and writes one JSON answer a line to stdout:

- {"op": "games", "players": [A, B], "depth": D, "exact": E, "games": [[opening, a_is_black], ...],
   "engine": {...}} plays those games (engines built once per request, tables
   cleared per game as play_game does) and answers the seconds spent in
   play_game, the nodes, and each game's moves and score.
- {"op": "solve", "obf": LINE, "tt_bits": B, "seconds": S} solves one
   position with a fresh solver and answers its move, value, nodes, seconds
   and whether it finished within S seconds.

It uses only the API the baseline commit (cf7873c) already had, so the same
script drives both builds.
"""

import json
import sys
import time


def play(request: dict) -> dict:
    # The package's face, which every layout the baseline may have had re-exports.
    from genethello.core import Chromosome, Engine, Evaluator, play_game

    a, b = (Chromosome.parse(text) for text in request["players"])
    kw = dict(depth=request["depth"], exact_empties=request["exact"], **request.get("engine", {}))
    ea, eb = Engine(Evaluator.from_chromosome(a), **kw), Engine(Evaluator.from_chromosome(b), **kw)
    seconds, nodes, games = 0.0, 0, []
    for opening, a_is_black in request["games"]:
        black, white = (ea, eb) if a_is_black else (eb, ea)
        t0 = time.perf_counter()
        result = play_game(black, white, opening)
        seconds += time.perf_counter() - t0
        nodes += result.nodes
        games.append([list(result.moves), result.score, result.black_discs, result.white_discs])
    return {"seconds": seconds, "nodes": nodes, "games": games}


def solve(request: dict) -> dict:
    from genethello.core import Board, Evaluator, Searcher

    board = Board.from_obf(request["obf"])
    searcher = Searcher(Evaluator(), tt_bits=request["tt_bits"])
    r = searcher.solve(board, seconds=request.get("seconds"))
    return {"move": r.move, "value": r.value, "exact": bool(r.exact), "nodes": r.nodes, "seconds": r.seconds,
            "empties": board.empties}


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"games": play, "solve": solve}[request["op"]](request)
        except Exception as exc:            # reported to the parent, which stops with it
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

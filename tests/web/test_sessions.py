"""Live games in process: pondering on the person's time pays off on a hit,
gives way on a miss, and never outlasts its limit."""

from __future__ import annotations

import asyncio
import threading

from genethello.cluster.web import play, sessions
from genethello.cluster.web.search_pool import SearchPool
from genethello.core.engine.squares import square_name
from genethello.core.families.chromosome import Chromosome

from .conftest import EXAMPLE_CHROMOSOME


def run_in_own_loop(scenario) -> None:
    """asyncio.run(scenario()) on a thread of its own: Playwright's sync API
    (the browser tests' session fixture) keeps a loop running on this one."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as exc:       # re-raised on the test's thread
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the scenario did not end within 60 s"
    if failure:
        raise failure[0]


def person_against_machine(depth: int = 5) -> sessions.PlaySession:
    settings = play.parse_settings({"black": {"kind": "human"},
                                    "white": {"kind": "machine", "chromosome": EXAMPLE_CHROMOSOME, "depth": depth}})
    return sessions.PlaySession(settings, SearchPool(2), Chromosome.parse(EXAMPLE_CHROMOSOME))


def test_the_predicted_reply_is_answered_from_pondering():
    async def scenario():
        game = person_against_machine()
        machine = game.machines["white"]
        game.human_move("f5")
        await game.machine_move()
        assert machine.ponderer.active and game.pool.busy == 1          # thinking on the person's time
        predicted = square_name(machine.ponderer.predicted_move)
        game.human_move(predicted)
        view = await game.machine_move()
        assert view["last_search"]["pondered"] and view["last_search"]["depth"] >= 5
        others = [m for m in game.board.legal_moves() if m != machine.ponderer.predicted_move]
        if machine.ponderer.active and others:
            game.human_move(square_name(others[0]))                    # a miss: the pondering is dropped
            assert not machine.ponderer.active and game.pool.busy == 0
        await game.close()
        assert game.pool.busy == 0

    run_in_own_loop(scenario)


def test_pondering_stops_at_its_time_limit(monkeypatch):
    monkeypatch.setattr(sessions, "PONDER_MAX_SECONDS", 0.3)

    async def scenario():
        settings = play.parse_settings({"black": {"kind": "human"},
                                        "white": {"kind": "machine", "chromosome": EXAMPLE_CHROMOSOME},
                                        "seconds": 5})
        game = sessions.PlaySession(settings, SearchPool(2), Chromosome.parse(EXAMPLE_CHROMOSOME))
        machine = game.machines["white"]
        game.human_move("f5")
        await game.machine_move()                # on the clock: it then ponders without a depth limit
        await asyncio.sleep(0.1)
        assert machine.ponderer.active and machine.ponder_slot is not None
        await asyncio.sleep(0.4)
        assert not machine.ponderer.active and game.pool.busy == 0
        await game.close()

    run_in_own_loop(scenario)


def test_a_machine_player_names_the_pattern_table_it_plays_with():
    from genethello.core.evaluation.pattern_table import shared_table

    settings = play.parse_settings({"black": {"kind": "human"},
                                    "white": {"kind": "machine", "chromosome": "p_1_10", "depth": 1}})
    game = sessions.PlaySession(settings, SearchPool(1), Chromosome.parse("p_1_10"), "patterns-v1")
    assert game.view()["players"]["white"]["patterns"] == shared_table("patterns-v1").version
    assert "patterns" not in game.view()["players"]["black"]
    newest = sessions.PlaySession(settings, SearchPool(1), Chromosome.parse("p_1_10"))
    assert newest.view()["players"]["white"]["patterns"] == shared_table().version

"""The web app: Starlette routes over the game sessions, the replays and the
run database, plus the static page.

Every request is validated; what is wrong comes back as JSON ``{"error":
..., "field": ...}`` with a 4xx status, which the page shows beside the field
or above the board. Database reads run on threads (short transactions);
searches run on the search pool's threads.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from genethello.cluster.web import play, replays
from genethello.cluster.web.errors import BusyError, ConflictError, NotFoundError, WebRequestError
from genethello.cluster.web.run_data import RateTracker, RunReader, progress_figures
from genethello.cluster.web.search_pool import SearchPool
from genethello.cluster.web.security import GuardMiddleware
from genethello.cluster.web.sessions import PlaySession, SessionStore
from genethello.core.families.chromosome import Chromosome
from genethello.core.families.registry import Individual, family_of

STATIC = Path(__file__).parent / "static"
#: Hints when no machine plays and no run database has players: the
#: README's example chromosome.
FALLBACK_CHROMOSOME = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3"
#: The largest JSON body a request may send.
MAX_JSON_BYTES = 16 * 1024
#: Seconds between the runs page's looks at the database.
POLL_SECONDS = 0.5
#: Seconds between events when nothing changed (fresh ETA, keep-alive).
HEARTBEAT_SECONDS = 5.0
#: Seconds between checks that the page waiting for a search is still there.
DISCONNECT_CHECK_SECONDS = 0.05

_T = TypeVar("_T")


class WebState:
    """What the routes share: the search pool, the games, the run reader."""

    def __init__(self, db_target: str, slots: int | None = None, patterns: str | None = None,
                 memory_bound: int | None = None) -> None:
        self.pool = SearchPool(slots)
        self.games = SessionStore(self.pool, patterns, memory_bound)
        self.runs = RunReader(db_target)

    def hint_chromosome(self) -> Individual:
        """The newest run's best player (a chromosome or a network), else
        the README's example chromosome."""
        menu = self.runs.player_menu()
        for run in menu["runs"]:
            try:
                return play.parse_chromosome(run["players"][0]["chromosome"], lookup=self.runs.player)
            except WebRequestError:
                break
        return Chromosome.parse(FALLBACK_CHROMOSOME)


# ---------------------------------------------------------------- helpers
async def read_body(request: Request, limit: int, what: str = "the request") -> bytes:
    """The request body, refused past ``limit`` bytes (413) without reading
    the rest."""
    allowed = f"at most {limit // 1024} KiB" if limit < 1 << 20 else f"at most {limit / (1 << 20):g} MiB"
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit()):
            raise WebRequestError("bad Content-Length header")
        if int(declared) > limit:
            raise WebRequestError(f"{what} is {int(declared)} bytes; {allowed} are accepted",
                                  field="file", status=413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise WebRequestError(f"{what} is over {limit} bytes; {allowed} are accepted",
                                  field="file", status=413)
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(request: Request) -> dict[str, object]:
    body = await read_body(request, MAX_JSON_BYTES)
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except ValueError:
        raise WebRequestError("the request body is not valid JSON") from None
    except RecursionError:     # 64 KiB of '[' is deeper than the parser recurses
        raise WebRequestError("the request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise WebRequestError("the request body must be a JSON object")
    return data


def int_param(value: str, name: str) -> int:
    if not (value.isascii() and value.isdigit()) or len(value) > 12:   # isdigit alone takes superscripts
        raise WebRequestError(f"{name} must be a non-negative whole number, got {value!r}", field=name)
    return int(value)


async def watch_disconnect(request: Request, game: PlaySession, work: Awaitable[_T]) -> _T:
    """Await ``work`` (a coroutine of ``game``); if the page goes away
    meanwhile (tab closed, navigation), abandon the game's search."""
    task = asyncio.ensure_future(work)
    while not task.done():
        done, _ = await asyncio.wait({task}, timeout=DISCONNECT_CHECK_SECONDS)
        if not done and await request.is_disconnected():
            await game.abandon()
    return task.result()


def state(request: Request) -> WebState:
    web: WebState = request.app.state.web
    return web


# ---------------------------------------------------------------- routes
async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})


async def status(request: Request) -> Response:
    web = state(request)
    return JSONResponse({"slots": web.pool.slots, "busy": web.pool.busy, "games": len(web.games)})


async def players(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(state(request).runs.player_menu))


async def check_chromosome(request: Request) -> Response:
    data = await json_body(request)
    chromosome = await run_in_threadpool(play.parse_chromosome, data.get("chromosome"), "chromosome",
                                         state(request).runs.player)
    family = family_of(chromosome)
    return JSONResponse({"chromosome": str(chromosome), "type": chromosome.type.name, "family": family.noun,
                         "genes": family.named_genes(chromosome)})


async def new_game(request: Request) -> Response:
    web = state(request)
    body = await json_body(request)

    async def settings_of() -> tuple[play.WebGameSettings, Individual]:
        settings = await run_in_threadpool(play.parse_settings, body, web.runs.player)
        return settings, await run_in_threadpool(web.hint_chromosome)

    game = await web.games.create(settings_of)
    return JSONResponse(game.view())


def game_of(request: Request) -> PlaySession:
    return state(request).games.get(request.path_params["game_id"])


async def get_game(request: Request) -> Response:
    return JSONResponse(game_of(request).view())


async def move(request: Request) -> Response:
    game = game_of(request)
    data = await json_body(request)
    return JSONResponse(game.human_move(data.get("move"), data.get("ply")))


async def think(request: Request) -> Response:
    game = game_of(request)
    return JSONResponse(await watch_disconnect(request, game, game.machine_move()))


async def hint(request: Request) -> Response:
    game = game_of(request)
    return JSONResponse(await watch_disconnect(request, game, game.hint()))


async def undo(request: Request) -> Response:
    return JSONResponse(await game_of(request).undo())


async def close_game(request: Request) -> Response:
    await state(request).games.close(request.path_params["game_id"])
    return JSONResponse({"closed": True})


async def sgf(request: Request) -> Response:
    game = game_of(request)
    return Response(game.sgf(), media_type="application/x-go-sgf",
                    headers={"content-disposition": 'attachment; filename="genethello-game.sgf"'})


async def upload(request: Request) -> Response:
    name = request.query_params.get("name", "")
    if len(name) > 200:
        raise WebRequestError("the file name is too long", field="file")
    data = await read_body(request, replays.MAX_UPLOAD_BYTES, f"{name or 'the upload'}")
    return JSONResponse(await run_in_threadpool(replays.upload_view, name, data))


async def runs(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(state(request).runs.runs))


async def run_summary(request: Request) -> Response:
    web = state(request)
    run_id = int_param(request.path_params["run_id"], "run")
    summary = await run_in_threadpool(web.runs.summary, run_id)
    summary["progress"] = progress_figures(summary["progress"], RateTracker())
    return JSONResponse(summary)


async def run_events(request: Request) -> Response:
    """Server-sent events: the run's page whenever the database changes
    (looked at every POLL_SECONDS), and a heartbeat with a fresh ETA."""
    web = state(request)
    run_id = int_param(request.path_params["run_id"], "run")
    await run_in_threadpool(web.runs.summary, run_id)     # 404 now rather than in the stream

    async def stream() -> AsyncIterator[str]:
        tracker = RateTracker()
        last_key, summary, last_sent = None, None, 0.0
        loop = asyncio.get_running_loop()
        while not await request.is_disconnected():
            key = await run_in_threadpool(web.runs.change_key, run_id)
            now = loop.time()
            changed = key != last_key
            if changed:
                summary = await run_in_threadpool(web.runs.summary, run_id)
                last_key = key
            if summary is not None:
                figures = progress_figures(summary["progress"], tracker)
                if changed or now - last_sent >= HEARTBEAT_SECONDS:
                    last_sent = now
                    yield f"data: {json.dumps(dict(summary, progress=figures))}\n\n"
            await asyncio.sleep(POLL_SECONDS)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})


async def run_lineage(request: Request) -> Response:
    """The best so far's family tree and which operators pay."""
    run_id = int_param(request.path_params["run_id"], "run")
    return JSONResponse(await run_in_threadpool(state(request).runs.lineage, run_id))


async def run_games(request: Request) -> Response:
    run_id = int_param(request.path_params["run_id"], "run")
    generation = int_param(request.query_params.get("generation", ""), "generation")
    return JSONResponse({"games": await run_in_threadpool(state(request).runs.stored_games, run_id, generation)})


async def run_game(request: Request) -> Response:
    run_id = int_param(request.path_params["run_id"], "run")
    game_id = int_param(request.path_params["game_id"], "game")
    record, title = await run_in_threadpool(state(request).runs.stored_game_titled, run_id, game_id)
    view = await run_in_threadpool(replays.replay_view, record, title)
    return JSONResponse(view)


# ---------------------------------------------------------------- errors
def _error(message: str, status_code: int, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "field": field}, status_code=status_code)


async def on_request_error(request: Request, exc: WebRequestError) -> Response:
    return _error(str(exc), exc.status, exc.field)


async def on_state_error(request: Request, exc: Exception) -> Response:
    return _error(str(exc).strip("'\""), getattr(exc, "status", 409))


async def on_http_error(request: Request, exc: HTTPException) -> Response:
    return _error(exc.detail if isinstance(exc.detail, str) else "bad request", exc.status_code)


def create_app(db_target: str, *, loopback: bool = True, token: str | None = None,
               slots: int | None = None, patterns: str | None = None,
               memory_bound: int | None = None) -> GuardMiddleware:
    """The application, wrapped in its Host/token guard.

    Args:
        db_target: the run database (``serve --db``); it may not exist yet.
        loopback: the server is bound to loopback (Host check on).
        token: the access token (bound elsewhere), else None.
        slots: concurrent searches (default: one per core).
        patterns: pattern table version of the machine players (None: the newest).
    """
    web = WebState(db_target, slots, patterns, memory_bound)
    routes = [
        Route("/", index),
        Route("/api/status", status),
        Route("/api/players", players),
        Route("/api/chromosome", check_chromosome, methods=["POST"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/move", move, methods=["POST"]),
        Route("/api/games/{game_id}/think", think, methods=["POST"]),
        Route("/api/games/{game_id}/hint", hint, methods=["POST"]),
        Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
        Route("/api/games/{game_id}/close", close_game, methods=["POST"]),
        Route("/api/games/{game_id}/sgf", sgf),
        Route("/api/replay", upload, methods=["POST"]),
        Route("/api/runs", runs),
        Route("/api/runs/{run_id}", run_summary),
        Route("/api/runs/{run_id}/events", run_events),
        Route("/api/runs/{run_id}/lineage", run_lineage),
        Route("/api/runs/{run_id}/games", run_games),
        Route("/api/runs/{run_id}/games/{game_id}", run_game),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await web.games.close_all()
        web.pool.shutdown()
        web.runs.close()

    # Starlette types a handler as taking any Exception; it calls each with
    # the class it is registered for, which is what these two declare.
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        WebRequestError: on_request_error,  # type: ignore[dict-item]
        ConflictError: on_state_error,
        BusyError: on_state_error,
        NotFoundError: on_state_error,
        HTTPException: on_http_error,  # type: ignore[dict-item]
    })
    app.state.web = web
    return GuardMiddleware(app, loopback=loopback, token=token)

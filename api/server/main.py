"""The FastAPI application: ``create_app()`` and the module-level ``app``.

``rummy-solver serve`` runs ``api.server.main:app`` under uvicorn; each uvicorn
worker process imports this module, reads the ``RUMMY_SOLVER_*`` settings
once and, on startup, starts its solver processes (``api.pool.solver_pool``).
Interactive documentation is served at ``/docs`` (Swagger UI) and ``/redoc``
from packaged assets (no CDN), the schema at ``/openapi.json``.
"""

from __future__ import annotations

import gc
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from limits import parse

from api import API_VERSION
from api.pool.solver_pool import SolverPool
from api.server import metrics
from api.server.auth import ApiKeyMiddleware
from api.server.cors import JsonCorsMiddleware
from api.server.dispatch import warm_up
from api.server.http_errors import install_exception_handlers
from api.server.keys import KeyRing
from api.server.media_types import JSON, NDJSON
from api.server.middleware import BodyGuardMiddleware, CatchAllMiddleware, RequestContextMiddleware
from api.server.openapi import install_openapi
from api.server.playground_lane import PlaygroundLaneMiddleware
from api.server.quick_lane import QuickLaneMiddleware
from api.server.rate_limit import RateLimiter
from api.server.routes import health, operations, play, stream, variants
from api.shared.operations import OPERATIONS
from api.shared.settings import Settings, load_settings

DESCRIPTION = """\
Exact rummy hand solver: splits a hand into melds and deadwood optimally
under eight rule presets (basic, gin, rummy500, rommy, indian13, indian21,
contract, kalooki), every house-rule knob settable per request -- including
meld requirements, opening thresholds and card points, so a house variant
needs no code change.

* Cards: rank `A 2-9 T (or 10) J Q K` + suit `S H D C` (or `♠ ♥ ♦ ♣`), `JK` for a
  printed joker.
* Deadlines: every request has one, counted from its arrival (`time_limit_ms`,
  else the defaults); the answer comes by then -- the best found, marked not
  optimal, if the search had to stop.
* Errors: one shape everywhere, `{"detail": [{"type", "loc", "msg"}]}` with
  `type` a stable code (`invalid_card`, `too_many_copies`, `invalid_rules`,
  ...): 422 for a request the service cannot use, 413 for an oversized body,
  503 with `Retry-After` when the solvers cannot start it in time. Never 500.
* Every answer carries `X-Request-ID` (yours, echoed, or a new one).
"""


def match_every_route(app: FastAPI) -> None:
    """Match one request against every route, at start: FastAPI (0.165)
    builds a router's request and response fields on its first match (about
    60 ms for this application's routes), which fell on the first client
    request's deadline (a 1 ms advice answered 503 70 ms late)."""
    for route in app.router.routes:
        route.matches({"type": "http", "path": "/", "root_path": "", "method": "GET",
                       "headers": [], "query_string": b""})


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application; ``settings`` default to the environment's (read now)."""
    settings = load_settings() if settings is None else settings
    settings.apply_to_engines()

    def report(pool: SolverPool) -> None:
        metrics.QUEUE_DEPTH.set(pool.queue_depth)
        metrics.BUSY.set(pool.busy)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = SolverPool(settings, "api.pool.jobs:run_job", on_change=report,
                          preload="api.pool.warmed")
        await pool.start()
        warm_up(settings)
        match_every_route(app)
        limiter: RateLimiter | None = app.state.limiter
        if limiter is not None:
            # A burst of keyed requests finds its connections to Redis open
            # (each opening its own overran the connect timeout under load).
            await limiter.warm()
        # What start-up built lives as long as the worker: out of the
        # collector's full passes, which would otherwise scan it on a request.
        gc.freeze()
        app.state.pool = pool
        try:
            yield
        finally:
            await pool.stop()
            if limiter is not None:
                await limiter.close()
            metrics.worker_exited(os.getpid(), settings)

    app = FastAPI(
        title="rummy-solver",
        version=API_VERSION,
        description=DESCRIPTION,
        lifespan=lifespan,
        # Starlette's 307 to the path without its slash is absolute, with the scheme the
        # proxy in front spoke to us (http behind TLS): api.server.http_errors redirects
        redirect_slashes=False,
        docs_url=None,
        redoc_url=None,
        openapi_tags=[
            {"name": "solve", "description": "optimal melds for a hand"},
            {"name": "validate", "description": "check a declared arrangement"},
            {"name": "variants", "description": "rule presets and their knobs"},
            {"name": "health", "description": "liveness, readiness, version and metrics"},
            {"name": "gin", "description": "gin knock eligibility and knock/undercut/gin scoring"},
            {"name": "hints", "description": "discard, draw, layoff and pile-pickup hints"},
            {"name": "scoring", "description": "points per player at the end of a round"},
            {"name": "advice", "description": "the move a strong player would make, every "
                                              "legal move ranked (gin)"},
        ],
    )
    app.state.settings = settings
    for router in (variants.router, operations.router, stream.router, health.router,
                   play.router):
        app.include_router(router)
    install_openapi(app)
    from api.server import docs

    docs.install(app)
    install_exception_handlers(app)
    # Starlette wraps the last-added middleware outermost: the request context
    # sees everything (503s of the catch-all included), CORS headers reach the
    # body guard's 413/422 too.
    app.add_middleware(QuickLaneMiddleware, settings=settings)
    app.add_middleware(BodyGuardMiddleware, max_body_bytes=settings.max_body_bytes,
                       streaming_paths=frozenset({stream.PATH}),
                       body_timeout_s=settings.body_timeout_s,
                       body_types={**{op.path: JSON for op in OPERATIONS.values()},
                                   stream.PATH: NDJSON})
    keys = KeyRing.from_settings(settings)
    if settings.api_keys_file and not keys:
        logging.getLogger("api.keys").warning(
            "RUMMY_SOLVER_API_KEYS_FILE names %s, which holds no key: /v1 is open to anyone "
            "who reaches the port (add a key's line, python -m api.server.keys KEY)",
            settings.api_keys_file)
    app.state.limiter = None
    if keys:
        limiter = RateLimiter(settings.redis_url, settings.redis_connect_timeout_ms,
                              settings.redis_timeout_ms, settings.rate_limit_fail,
                              settings.redis_pool_size)
        app.state.limiter = limiter  # /readyz reports its Redis
        # Outside the body guard (an unknown caller's body is never read), inside CORS
        # (a browser can read the 401 and 429).
        app.add_middleware(ApiKeyMiddleware, keys=keys, limiter=limiter,
                           failure_limit=parse(settings.auth_failure_limit),
                           metrics_need_key=settings.metrics_need_key)
        if settings.playground_rate:
            # Outside the key check, which lets the calls it admitted pass.
            app.add_middleware(PlaygroundLaneMiddleware, limiter=limiter,
                               rate=settings.playground_rate)
    if settings.origins:
        app.add_middleware(
            JsonCorsMiddleware, allow_origins=settings.origins,
            allow_methods=["GET", "POST", "OPTIONS"], allow_headers=["*"],
            expose_headers=["X-Request-ID", "Retry-After", "Deprecation", "Link"], max_age=600,
        )
    app.add_middleware(CatchAllMiddleware)
    app.add_middleware(RequestContextMiddleware, access_log_per_s=settings.access_log_per_s,
                       connection_max_s=settings.connection_max_s)
    return app


app = create_app()

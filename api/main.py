"""The FastAPI application: ``create_app()`` and the module-level ``app``.

``rummy-solver serve`` runs ``uvicorn.run("api.main:app", ...)``; each uvicorn
worker process imports this module and so reads the ``RUMMY_SOLVER_*``
settings once.  Interactive documentation is served at ``/docs`` (Swagger UI)
and ``/redoc``; the schema at ``/openapi.json``.
"""

from __future__ import annotations

from fastapi import FastAPI

from api import API_VERSION
from api.errors import install_exception_handlers
from api.middleware import BodyLimitMiddleware, CatchAllMiddleware
from api.routes import gin, health, hints, scoring, solve, validate, variants
from api.settings import Settings

DESCRIPTION = """\
Exact rummy hand solver: splits a hand into melds and deadwood optimally
under six rule presets (basic, gin, rummy500, rommy, indian13, indian21),
every house-rule knob settable per request.

* Cards: rank `A 2-9 T (or 10) J Q K` + suit `S H D C` (or `♠ ♥ ♦ ♣`), `JK` for a
  printed joker.
* Errors: 422 in FastAPI's shape `{"detail": [{"loc", "msg", "type"}]}` for
  malformed requests and domain errors alike (`type` is a stable code such as
  `invalid_card`, `too_many_copies`, `invalid_rules`); 413 for an oversized
  body; 503 if the solver itself fails.  Never 500.
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application; ``settings`` default to the environment's."""
    settings = Settings.from_env() if settings is None else settings
    app = FastAPI(
        title="rummy-solver",
        version=API_VERSION,
        description=DESCRIPTION,
        openapi_tags=[
            {"name": "solve", "description": "optimal melds for a hand"},
            {"name": "validate", "description": "check a declared arrangement"},
            {"name": "variants", "description": "rule presets and their knobs"},
            {"name": "health", "description": "liveness and readiness probes"},
            {"name": "gin", "description": "gin knock eligibility and knock/undercut/gin scoring"},
            {"name": "hints", "description": "discard, draw, layoff and pile-pickup hints"},
            {"name": "scoring", "description": "points per player at the end of a round"},
        ],
    )
    app.state.settings = settings
    for router in (variants.router, solve.router, validate.router, health.router,
                   gin.router, hints.router, scoring.router):
        app.include_router(router)
    install_exception_handlers(app)
    # Starlette wraps the last-added middleware outermost: the catch-all sees
    # everything the body limit and the app let through.
    app.add_middleware(BodyLimitMiddleware, max_body_bytes=settings.max_body_bytes)
    app.add_middleware(CatchAllMiddleware)
    return app


app = create_app()

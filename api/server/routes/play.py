"""``GET /play``, ``GET /play/gin`` and ``GET /play/indian``: the playground's pages, their
scripts and style under ``/play-assets``.

Static pages (``api/static/play``: plain HTML, CSS and browser JavaScript,
nothing loaded from another host) that call the JSON API on the same origin.
Their state lives in the query string: ``/play?variant=gin&hand=AS+2S+3S+...``
is a link to a solved hand, ``/play/gin?seed=42&hand=3`` to a hand of gin
against the bot (the move advisor), dealt from that seed, and
``/play/indian?seed=42&deal=1&players=3`` to a deal of 13-card Indian rummy
against two bots.  Only the files
shipped in that directory are served, by name; the pages' Content-Security-Policy
lets the browser load nothing from anywhere else.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from api.server.http_errors import error_response

router = APIRouter(include_in_schema=False)

ASSETS = "/play-assets"
STATIC_DIR = Path(str(files("api") / "static" / "play"))
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
PAGES = frozenset({"index.html", "gin.html", "indian.html"})
"""Served at their own paths (``/play``, ``/play/gin``, ``/play/indian``), not as assets."""
ASSET_FILES = frozenset(
    p.name for p in STATIC_DIR.iterdir() if p.suffix in MEDIA_TYPES and p.name not in PAGES
)
"""What ``/play-assets/{name}`` serves: the shipped files, fixed at import (no path is joined
from the request)."""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# The page changes with the package: revalidate rather than cache for long.
CACHE_CONTROL = "no-cache"


def _file(name: str) -> FileResponse:
    path = STATIC_DIR / name
    return FileResponse(path, media_type=MEDIA_TYPES[path.suffix], headers={
        "Cache-Control": CACHE_CONTROL, "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    })


@router.get("/play")
async def play_page() -> FileResponse:
    """The playground page; it reads its state from the query string itself."""
    return _file("index.html")


@router.get("/play/gin")
async def gin_page() -> FileResponse:
    """A hand of gin against the bot, with hints; the match lives in the query string."""
    return _file("gin.html")


@router.get("/play/indian")
async def indian_page() -> FileResponse:
    """A deal of 13-card Indian rummy against 1-3 bots, with hints; the game lives in the
    query string."""
    return _file("indian.html")


@router.get(ASSETS + "/{name}")
async def play_asset(name: str) -> Response:
    """One of the page's files (script, style, icon)."""
    if name not in ASSET_FILES:
        return error_response(404, "not_found", f"no playground asset {name!r}", ("path", "name"))
    return _file(name)

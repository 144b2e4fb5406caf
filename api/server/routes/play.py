"""``GET /play``, ``GET /play/gin`` and ``GET /play/indian``: the playground's pages, their
scripts and style under ``/play-assets``.

The pages (``api.pages``: plain HTML, CSS and browser JavaScript, nothing
loaded from another host) call the JSON API on the same origin.  Their state
lives in the query string: ``/play?variant=gin&hand=AS+2S+3S+...`` is a link
to a solved hand, ``/play/gin?seed=42&hand=3`` to a hand of gin against the
bot (the move advisor), dealt from that seed, and
``/play/indian?seed=42&deal=1&players=3`` to a deal of 13-card Indian rummy
against two bots.  Only the files shipped with the pages are served, by name
(``api.pages.assets``), with headers that let the browser load nothing from
anywhere else.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from api.pages.assets import ASSET_FILES, HEADERS, STATIC_DIR, media_type
from api.server.http_errors import error_response
from api.shared.errors import bounded

router = APIRouter(include_in_schema=False)

ASSETS = "/play-assets"


def _file(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / name, media_type=media_type(name), headers=HEADERS)


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
        return error_response(404, "not_found", f"no playground asset {bounded(name)!r}", ("path", "name"))
    return _file(name)

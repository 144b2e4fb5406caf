"""The playground's files and how they are served: which pages and assets
exist, their media types, and the headers that keep the browser on them.

Only the files shipped in ``static/play`` are served, by name (``PAGES`` at
their own paths, ``ASSET_FILES`` under ``/play-assets``), fixed at import so
no path is ever joined from a request; the Content-Security-Policy lets the
browser load nothing from anywhere else.

>>> sorted(PAGES)
['gin.html', 'index.html', 'indian.html']
>>> "play.js" in ASSET_FILES and "index.html" not in ASSET_FILES
True
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

STATIC_DIR = Path(str(files("api.pages") / "static" / "play"))
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
HEADERS = {
    "Cache-Control": CACHE_CONTROL, "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
}
"""The headers of every page and asset."""


def media_type(name: str) -> str:
    """The media type a shipped file ``name`` is served with."""
    return MEDIA_TYPES[Path(name).suffix]

"""Interactive documentation that works offline: ``/docs`` (Swagger UI) and
``/redoc`` (ReDoc) served with assets from the ``fastapi-offline`` package
(no CDN, no web fonts), under ``/docs-assets``; and ``/``, a page of links to
them, the playground and the health routes (the address ``rummy-solver
serve`` prints).

ReDoc's bundle draws the Redocly logo in its sidebar from ``cdn.redoc.ly``;
it is served from ``REDOC_JS`` with that image's address emptied, so the page
asks no other host for anything (the image element removes itself when its
image fails to load; the "API docs by Redocly" link stays).

Swagger UI writes a string example of a media type whose name holds "json" as
a JSON string literal, quotes and escaped line ends: Try it out on
``/v1/solve/stream`` (``application/x-ndjson``) sent one line holding a JSON
string, which the stream answers with an error line. ``SWAGGER_NDJSON_JS``,
loaded after the bundle, gives Swagger UI a plugin that keeps an NDJSON
example as its lines.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles

from api.server.media_types import ACCEPTED_NDJSON

ASSETS = "/docs-assets"
REDOC_JS = f"{ASSETS}/redoc-offline.js"
"""ReDoc's bundle without the image it would load from another host."""

SWAGGER_NDJSON_JS = f"{ASSETS}/swagger-ndjson.js"
"""The plugin that keeps an NDJSON body's example as its lines (see the module docstring)."""
_NDJSON_PLUGIN = """"use strict";
// An NDJSON body's example is its lines, not a JSON string literal (api/server/docs.py).
(() => {
  const NDJSON = new Set(NDJSON_TYPES);
  const bundle = window.SwaggerUIBundle;
  // Swagger UI's own getJsonSampleSchema (of either JSON Schema version), but for a string
  // sample of an NDJSON body.
  const jsonSample = (samples) => (schema, config, mediaType, example) => {
    const sample = samples().memoizedSampleFromSchema(schema, config, example);
    if (typeof sample === "string" && NDJSON.has(String(mediaType || "").split(";")[0].trim())) return sample;
    return typeof sample === "object" || (typeof sample === "string" && /json/.test(mediaType))
      ? JSON.stringify(sample, null, 2) : sample;
  };
  const ndjsonSamples = ({ getSystem }) => ({ fn: {
    getJsonSampleSchema: jsonSample(() => getSystem().fn),
    jsonSchema5: { getJsonSampleSchema: jsonSample(() => getSystem().fn.jsonSchema5 || getSystem().fn) },
    jsonSchema202012: { getJsonSampleSchema: jsonSample(() => getSystem().fn.jsonSchema202012) },
  } });
  window.SwaggerUIBundle = Object.assign(
    (options) => bundle({ ...options, plugins: [...(options.plugins || []), ndjsonSamples] }), bundle);
})();
""".replace("NDJSON_TYPES", json.dumps(sorted(ACCEPTED_NDJSON)))
_REMOTE_IMAGE = re.compile(rb'src:"https?://[^"]*"')
# The bundle is the package's: revalidate rather than cache for long.
_CACHE_CONTROL = "no-cache"
_HOME_HEADERS = {
    "Cache-Control": _CACHE_CONTROL, "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
}

_LINKS = (
    ("docs", "Swagger UI: every endpoint with its fields and examples, to try out"),
    ("redoc", "ReDoc: the same reference on one page"),
    ("openapi.json", "the OpenAPI document"),
    ("play", "the playground: a hand's optimal melds, discard and draw hints"),
    ("play/gin", "gin against the advisor, with hints"),
    ("play/indian", "a deal of 13-card Indian rummy against 1-3 bots, with hints"),
    ("healthz", "liveness"),
    ("readyz", "readiness: a solver process solves a known hand"),
    ("version", "the package, OR-Tools and Python versions"),
    ("metrics", "Prometheus metrics"),
)
"""What ``/`` links to: (relative path, what is there)."""


def assets_dir() -> str:
    """Where the packaged Swagger UI / ReDoc files are."""
    return str(files("fastapi_offline") / "static")


@cache
def redoc_bundle() -> bytes:
    """fastapi-offline's ReDoc bundle with every image address of another host emptied."""
    bundle = (Path(assets_dir()) / "redoc.standalone.js").read_bytes()
    return _REMOTE_IMAGE.sub(b'src:""', bundle)


def home_page(title: str, version: str) -> str:
    """The page at ``/``: what the service is and where to go. Links are relative, so
    they hold behind a proxy that serves the app under a path prefix."""
    items = "\n".join(
        f'  <li><a href="{path}">/{path}</a>: {html.escape(what)}</li>' for path, what in _LINKS)
    name = html.escape(f"{title} {version}")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name}</title>
<style>body {{ font-family: sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem;
line-height: 1.5; }}</style>
</head>
<body>
<h1>{name}</h1>
<p>An exact rummy hand solver and move advisor. The API is under <code>/v1</code>
(<code>POST /v1/solve</code>, <code>POST /v1/advise</code> ...).</p>
<ul>
{items}
</ul>
</body>
</html>
"""


def install(app: FastAPI) -> None:
    """Add ``/``, ``/docs``, ``/redoc`` and their assets to ``app``."""

    @app.get(SWAGGER_NDJSON_JS, include_in_schema=False)
    async def swagger_ndjson_js() -> Response:
        return Response(_NDJSON_PLUGIN, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": _CACHE_CONTROL})

    @app.get(REDOC_JS, include_in_schema=False)
    async def redoc_js() -> Response:
        return Response(redoc_bundle(), media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": _CACHE_CONTROL})

    # After REDOC_JS, which the mount would otherwise answer (404).
    app.mount(ASSETS, StaticFiles(directory=assets_dir()), name="docs-assets")
    home = home_page(app.title, app.version)

    @app.get("/", include_in_schema=False)
    async def home_route() -> HTMLResponse:
        return HTMLResponse(home, headers=_HOME_HEADERS)

    # FastAPI's Swagger UI page, with the NDJSON plugin loaded right after the bundle.
    bundle = f'<script src="{ASSETS}/swagger-ui-bundle.js"></script>'
    swagger = bytes(get_swagger_ui_html(
        openapi_url="/openapi.json", title=f"{app.title} - Swagger UI",
        swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS}/favicon.png",
    ).body).decode().replace(bundle, f'{bundle}\n<script src="{SWAGGER_NDJSON_JS}"></script>', 1)

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return HTMLResponse(swagger)

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url="/openapi.json", title=f"{app.title} - ReDoc",
            redoc_js_url=REDOC_JS,
            redoc_favicon_url=f"{ASSETS}/favicon.png", with_google_fonts=False,
        )

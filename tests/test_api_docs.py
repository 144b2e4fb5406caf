"""``api.server.docs``: the page at ``/`` (where ``rummy-solver serve``'s start
line points) links every page and probe, and ``/docs`` and ``/redoc`` work
offline: in headless Chromium (skipped without it, as in
``test_playground.py``) neither page asks another host for anything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest

from api.server import docs

WAIT_MS = 20_000


def test_home_is_a_page_of_links_that_answer(inline_client: Any) -> None:
    home = inline_client.get("/")
    assert home.status_code == 200
    assert home.headers["content-type"].startswith("text/html")
    links = re.findall(r'href="([^"]+)"', home.text)
    assert {"docs", "redoc", "play", "healthz"} <= set(links)
    for link in links:
        path = urlsplit(urljoin("http://testserver/", link)).path
        assert inline_client.get(path).status_code == 200, path


def test_home_is_not_an_operation_of_the_schema(inline_client: Any) -> None:
    assert "/" not in inline_client.get("/openapi.json").json()["paths"]


def test_redoc_bundle_has_no_image_from_another_host(inline_client: Any) -> None:
    html = inline_client.get("/redoc").text
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts == [docs.REDOC_JS]
    bundle = inline_client.get(docs.REDOC_JS)
    assert bundle.status_code == 200
    assert bundle.headers["content-type"].startswith("text/javascript")
    assert re.search(rb'src:"https?://', bundle.content) is None
    assert b"cdn.redoc.ly" not in bundle.content
    # The package's own copy does load one: the check above is not vacuous.
    with open(f"{docs.assets_dir()}/redoc.standalone.js", "rb") as original:
        assert re.search(rb'src:"https?://', original.read()) is not None


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()


def _visit(page: Any, base_url: str, path: str, ready: str) -> list[str]:
    """Open ``path``, wait for ``ready`` to show; the addresses asked of any other host
    (refused, so the test never waits on the network)."""
    own = urlsplit(base_url).netloc
    elsewhere: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if urlsplit(url).scheme in ("http", "https") and urlsplit(url).netloc != own:
            elsewhere.append(url)
            request_route.abort()
        else:
            request_route.continue_()

    page.route("**/*", route)
    page.goto(base_url + path)
    page.wait_for_selector(ready, timeout=WAIT_MS)
    page.wait_for_load_state("networkidle", timeout=WAIT_MS)
    return elsewhere


@dataclass
class SwaggerUi:
    """``/docs`` as ``_visit`` left it: the page, the addresses it asked of other hosts (the
    list grows while the page is used) and its script errors."""

    page: Any
    elsewhere: list[str]
    errors: list[str]


@pytest.fixture(scope="module")
def swagger_ui(browser: Any, base_url: str) -> Iterator[SwaggerUi]:
    """``/docs`` opened once for the Swagger UI tests: drawing the schema takes the browser
    seconds, and each test looked at the page as loaded (what it asked, what Try it out does)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield SwaggerUi(page, _visit(page, base_url, "/docs", ".swagger-ui .info"), errors)
    finally:
        context.close()


def test_redoc_asks_no_other_host(page: Any, base_url: str) -> None:
    elsewhere = _visit(page, base_url, "/redoc", "h1:has-text('rummy-solver')")
    # The sidebar's "API docs by Redocly" link, where the logo was drawn, is still there.
    assert page.get_by_text("API docs by Redocly").count() == 1
    assert elsewhere == []


def test_swagger_ui_asks_no_other_host(swagger_ui: SwaggerUi) -> None:
    assert swagger_ui.elsewhere == []


def test_home_asks_no_other_host(page: Any, base_url: str) -> None:
    elsewhere = _visit(page, base_url, "/", "a[href=docs]")
    page.click("a[href=redoc]")
    page.wait_for_selector("h1:has-text('rummy-solver')", timeout=WAIT_MS)
    assert urlsplit(page.url).path == "/redoc"
    assert elsewhere == []


def test_swagger_ui_tries_the_stream_with_its_example_lines(swagger_ui: SwaggerUi) -> None:
    """Try it out on ``POST /v1/solve/stream`` sends the example's three lines, and the stream
    answers each (audit of the pages: Swagger UI wrote an NDJSON example as a JSON string
    literal, so the body was one line holding a string and the answer one error line)."""
    page = swagger_ui.page
    operation = page.locator("#operations-solve-solve_stream")
    operation.locator(".opblock-summary").first.click(timeout=WAIT_MS)
    operation.locator("button.try-out__btn").click(timeout=WAIT_MS)
    body = operation.locator("textarea").first.input_value()
    assert body.splitlines()[0] == '{"id": 1, "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}'
    with page.expect_response("**/v1/solve/stream", timeout=WAIT_MS) as answered:
        operation.locator("button.execute").click()
    lines = [json.loads(line) for line in answered.value.text().splitlines()]
    assert [line["id"] for line in lines] == [1, 2, 3]
    assert "result" in lines[0] and "result" in lines[1]
    assert lines[2]["error"]["type"] == "invalid_card"
    assert swagger_ui.errors == []


def test_swagger_ui_loads_the_ndjson_plugin_after_its_bundle(inline_client: Any) -> None:
    scripts = re.findall(r'<script src="([^"]+)"', inline_client.get("/docs").text)
    assert scripts == [f"{docs.ASSETS}/swagger-ui-bundle.js", docs.SWAGGER_NDJSON_JS]
    plugin = inline_client.get(docs.SWAGGER_NDJSON_JS)
    assert plugin.headers["content-type"].startswith("text/javascript")
    assert '"application/x-ndjson"' in plugin.text

"""The playground page (``/play``) in a real browser.

Headless Chromium (Debian's ``chromium`` package, ``/usr/bin/chromium``)
driven by Playwright's Python package, against the app served by uvicorn on
a free port in a background thread.  Every page load is checked for requests
to any other host (the page must work offline) and for script errors.
The browser tests skip, with the reason, when the browser or Playwright is
missing (the check of the page's route and headers still runs).
``serve_app`` and ``launch_chromium`` are shared with the other playground
test modules (``test_playground_gin.py``: gin against the bot;
``test_playground_indian.py``: Indian rummy against the bots).

Screenshots go to a pytest temp directory, and the gin hand's also to
``/tmp/play-screenshot.png``.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from api.server.main import create_app
from api.server.routes import play
from api.shared.settings import Settings
from tests.game_pages import HTTP, WatchedPage

CHROMIUM = Path("/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOT = Path("/tmp/play-screenshot.png")
START_TIMEOUT_S = 20.0
GIN_HAND = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
INDIAN13_HAND = "AS 2S 3S 4S 7H 8H JK 5D 5C 5S KD QD 9C"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PHONE_HEIGHT = 844
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": PHONE_HEIGHT}, "device_scale_factor": 2,
                         "is_mobile": True, "has_touch": True}
"""A 390 px wide phone: its first screen is PHONE_HEIGHT px tall."""


def short(token: str) -> str:
    """How the page writes a card: ``"TH"`` -> ``"10♥"``, ``"JK"`` stays."""
    if token == "JK":
        return token
    return ("10" if token[0] == "T" else token[0]) + SUITS[token[1]]


def symbols(text: str) -> str:
    """A sentence from the API as the page writes it: card tokens with suit symbols."""
    return re.sub(r"(?<![A-Za-z0-9])(10|[A2-9TJQK])([SHDC])(?![A-Za-z0-9])",
                  lambda m: short(("T" if m[1] == "10" else m[1]) + m[2]), text)


def link(**params: str) -> str:
    return "/play?" + "&".join(f"{k}={v.replace(' ', '+')}" for k, v in params.items())


# ---------------------------------------------------------------------------
# Fixtures: the server, the browser, one page per test


@contextmanager
def serve_app(settings: Settings | None = None) -> Iterator[str]:
    """The app (``settings``, by default the environment's with solver threads, no
    processes) on a free port; yields its base URL."""
    app = create_app(Settings(processes=0) if settings is None else settings)
    if not any(getattr(route, "path", None) == "/play" for route in app.routes):
        app.include_router(play.router)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """Headless Chromium under Playwright; skips the test when either is missing."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright not installed (pip install playwright)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Watched(WatchedPage):
    """The playground page (``WatchedPage``) and its answer panels."""

    def open(self, path: str) -> None:
        self.page.goto(self.base_url + path)
        self.page.wait_for_selector("body[data-ready=true]")

    def done(self, section: str, hand: str | None = None, state: str = "done") -> Any:
        """Wait until ``section`` (result, discard-hint, draw-hint) shows an answer (for
        ``hand``, as typed, when given)."""
        for_hand = "" if hand is None else f"[data-hand={json.dumps(hand)}]"
        self.page.wait_for_selector(f"[data-testid={section}][data-state={state}]{for_hand}")
        return self.page.get_by_test_id(section)


@pytest.fixture()
def watched(browser: Any, base_url: str) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = Watched(context.new_page(), base_url)
    try:
        yield page
        assert any(url.endswith("/v1/variants") for url in page.requests)
        page.check(failures_expected=True)
    finally:
        context.close()


def api(base_url: str, path: str, body: dict[str, Any]) -> Any:
    response = HTTP.post(base_url + path, json=body, timeout=30.0)
    assert response.status_code == 200, response.text
    return response.json()


def shown_melds(watched: Watched) -> list[tuple[str, str]]:
    melds = watched.testid("melds").get_by_test_id("meld")
    return [(melds.nth(i).get_attribute("data-kind"), melds.nth(i).get_attribute("data-cards"))
            for i in range(melds.count())]


def card_tokens(locator: Any) -> list[str]:
    cards = locator.get_by_test_id("card")
    return [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]


# ---------------------------------------------------------------------------
# The page


def test_page_and_assets_are_served_with_a_strict_policy(base_url: str) -> None:
    for path in ("/play", "/play/gin", "/play/indian"):
        page = HTTP.get(base_url + path)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "default-src 'none'" in page.headers["content-security-policy"]
    for asset in ("play.js", "play.css", "icon.svg", "cards.js", "seeded.js", "table-api.js",
                  "table-page.js",
                  "advice-chart.js", "review-panel.js", "review-panel.css", "gin.js",
                  "gin-referee.js", "gin.css", "indian.js",
                  "indian-referee.js", "indian.css", "words.js"):
        assert HTTP.get(f"{base_url}/play-assets/{asset}").status_code == 200
    for missing_path in ("/play-assets/..%2Fplay.py", "/play-assets/gin.html", "/play-assets/indian.html"):
        missing = HTTP.get(base_url + missing_path)
        assert missing.status_code == 404
        assert missing.json()["detail"][0]["type"] == "not_found"
    index = HTTP.get(base_url + "/play").text
    assert 'href="play/gin"' in index and 'href="play/indian"' in index  # the playground links the games
    paths = HTTP.get(base_url + "/openapi.json").json()["paths"]
    assert "/play" not in paths and "/play/gin" not in paths and "/play/indian" not in paths


def test_gin_link_shows_melds_deadwood_and_points(watched: Watched, shots: Path) -> None:
    watched.open(link(variant="gin", hand=GIN_HAND))
    result = watched.done("result", GIN_HAND)
    assert watched.testid("variant").input_value() == "gin"
    assert watched.testid("hand-input").input_value() == GIN_HAND
    assert card_tokens(watched.testid("hand")) == GIN_HAND.split()
    assert sorted(shown_melds(watched)) == [("run", "AS 2S 3S"), ("set", "7H 7D 7C")]
    labels = [watched.testid("meld").nth(i).get_attribute("aria-label") for i in range(2)]
    assert any("A♠ 2♠ 3♠" in label for label in labels), labels
    assert any("7♥ 7♦ 7♣" in label for label in labels), labels
    assert watched.testid("deadwood-points").inner_text() == "33"
    assert sorted(card_tokens(watched.testid("deadwood"))) == ["4C", "9S", "KD", "QH"]
    assert watched.testid("wild-badge").count() == 0
    assert "optimal" in result.get_by_test_id("result-status").inner_text()
    watched.page.screenshot(path=str(shots / "gin.png"), full_page=True)
    watched.page.screenshot(path=str(SCREENSHOT), full_page=True)


def test_indian13_link_marks_what_each_wild_card_stands_for(
        watched: Watched, base_url: str, shots: Path) -> None:
    watched.open(link(variant="indian13", hand=INDIAN13_HAND, wild="7H"))
    watched.done("result", INDIAN13_HAND)
    expected = api(base_url, "/v1/solve",
                   {"variant": "indian13", "hand": INDIAN13_HAND, "wild_rank": "7H"})
    assert sorted(shown_melds(watched)) == sorted(
        (m["kind"], " ".join(m["cards"])) for m in expected["melds"])
    wilds = {(card, meant) for m in expected["melds"]
             for card, meant in zip(m["cards"], m["represents"], strict=True) if card != meant}
    assert any(card == "JK" for card, _ in wilds) and any(card == "7H" for card, _ in wilds)
    shown = watched.testid("melds").locator(".card.wild")
    assert shown.count() == len(wilds)
    seen = set()
    for i in range(shown.count()):
        card = shown.nth(i)
        meant = card.get_attribute("data-represents")
        seen.add((card.get_attribute("data-card"), meant))
        assert card.get_by_test_id("wild-badge").inner_text() == f"= {short(meant)}"
        assert "stands for the" in card.get_attribute("aria-label")
    assert seen == wilds
    assert watched.testid("deadwood-points").inner_text() == str(expected["deadwood_points"])
    assert watched.query()["wild"] == ["7H"]
    watched.page.screenshot(path=str(shots / "indian13.png"), full_page=True)


def test_discard_hint_ranks_discards_and_plays_one(
        watched: Watched, base_url: str, shots: Path) -> None:
    hand = GIN_HAND + " 5S"
    watched.open(link(variant="gin", hand=hand, discard="1"))
    assert watched.testid("discard-toggle").is_checked()
    hint = watched.done("discard-hint", hand)
    expected = api(base_url, "/v1/hints/discard", {"variant": "gin", "hand": hand})
    best = hint.get_by_test_id("discard-option").first
    assert best.get_attribute("data-rank") == "1"
    assert sorted(best.get_attribute("data-discards").split()) == sorted(expected["groups"][0])
    assert f"deadwood {expected['options'][0]['value']}" in best.inner_text()
    assert hint.get_by_test_id("discard-option").count() == len(expected["groups"])
    # The solve chose a discard too.
    watched.done("result", hand)
    assert watched.testid("discard-card").get_by_test_id("card").get_attribute("data-card") \
        in expected["groups"][0]
    watched.page.screenshot(path=str(shots / "discard-hint.png"), full_page=True)

    choice = best.get_by_test_id("discard-choice").first
    played = choice.get_attribute("data-card")
    choice.click()
    kept = hand.split()
    kept.remove(played)
    watched.done("result", " ".join(kept))
    assert not watched.testid("discard-toggle").is_checked()
    assert played not in watched.query()["hand"][0].split()
    assert "discard" not in watched.query()
    assert watched.testid("deadwood-points").inner_text() == str(expected["options"][0]["value"])


def test_draw_hint_from_a_picked_pile_top(watched: Watched, base_url: str, shots: Path) -> None:
    watched.open(link(variant="gin", hand=GIN_HAND))
    watched.done("result", GIN_HAND)
    watched.testid("target-top").check()
    watched.testid("pick-4S").click()
    hint = watched.done("draw-hint", GIN_HAND)
    expected = api(base_url, "/v1/hints/draw",
                   {"variant": "gin", "hand": GIN_HAND, "discard_top": "4S"})
    verdict = hint.get_by_test_id("draw-recommendation")
    assert verdict.get_attribute("data-recommendation") == expected["recommendation"]
    if expected["recommendation"] == "take_discard":
        assert "Take the 4♠" in verdict.inner_text()
    # The API writes "taking 4S ..."; the page writes cards with suit symbols everywhere.
    reason = hint.get_by_test_id("draw-reason").inner_text()
    assert reason == symbols(expected["reason"])
    assert "4♠" in reason and "4S" not in reason
    compare = hint.get_by_test_id("draw-compare").inner_text()
    assert str(expected["take"]["value"]) in compare
    assert f"{expected['blind']['expected_value']:.2f}" in compare
    assert watched.testid("pile-top").input_value() == "4S"
    assert watched.query()["top"] == ["4S"]
    # The hand is untouched by picking the pile top.
    assert watched.testid("hand-input").input_value() == GIN_HAND
    watched.page.screenshot(path=str(shots / "draw-hint.png"), full_page=True)

    # The link with the top renders the hint at once.
    watched.open(link(variant="gin", hand=GIN_HAND, top="4S"))
    assert watched.done("draw-hint", GIN_HAND).get_by_test_id("draw-recommendation") \
        .get_attribute("data-recommendation") == expected["recommendation"]


def test_bad_input_is_shown_next_to_its_field(watched: Watched) -> None:
    watched.open("/play")
    watched.testid("hand-input").fill("AS 2S XX 4S")
    watched.testid("solve-button").click()
    watched.done("result", "AS 2S XX 4S", state="error")
    error = watched.testid("hand-error")
    assert "unknown card 'XX' at position 2" in error.inner_text()
    bad = watched.testid("hand").locator("[aria-invalid=true]")
    assert bad.count() == 1 and bad.get_attribute("data-index") == "2"
    assert watched.testid("hand-input").get_attribute("aria-invalid") == "true"

    # gin has no cut joker, so no wild-rank box, unless a link brings a value: then the box
    # shows it with the reason to clear it.
    watched.open(link(variant="gin", hand=GIN_HAND, wild="7"))
    watched.done("result", GIN_HAND, state="error")
    watched.page.wait_for_selector("[data-testid=wild-error]:not([hidden])")
    assert watched.testid("wild-field").is_visible()
    assert "has no wild rank" in watched.testid("wild-error").inner_text()
    assert watched.testid("hand-error").is_hidden()

    watched.testid("wild-input").fill("")
    watched.page.locator("#rules-box > summary").click()
    watched.testid("rules-input").fill('{"knock_limit": -4}')
    watched.testid("solve-button").click()
    watched.page.wait_for_selector("[data-testid=rules-error]:not([hidden])")
    assert "rules.knock_limit" in watched.testid("rules-error").inner_text()
    watched.testid("rules-input").fill("{not json")
    watched.testid("solve-button").click()
    assert "not valid JSON" in watched.testid("rules-error").inner_text()


def test_rules_from_the_link_reach_the_solver(watched: Watched, base_url: str) -> None:
    rules = {"ace": "high_low"}
    hand = "QS KS AS 7H 7D 7C 2D 5H 9C 4C"
    watched.open(link(variant="gin", hand=hand, rules=json.dumps(rules).replace(" ", "")))
    watched.done("result", hand)
    expected = api(base_url, "/v1/solve", {"variant": "gin", "hand": hand, "rules": rules})
    assert json.loads(watched.testid("rules-input").input_value()) == rules
    assert ("run", "QS KS AS") in shown_melds(watched)
    assert watched.testid("deadwood-points").inner_text() == str(expected["deadwood_points"])


def test_picker_and_keyboard_build_a_hand(watched: Watched) -> None:
    watched.open("/play?variant=gin")
    assert watched.testid("result").get_attribute("data-state") == "empty"
    watched.testid("pick-AS").click()
    # Arrow keys move along the picker; Enter picks.
    watched.testid("pick-AS").press("ArrowRight")
    watched.page.keyboard.press("Enter")
    watched.page.keyboard.press("ArrowRight")
    watched.page.keyboard.press(" ")
    watched.done("result", "AS 2S 3S")
    assert shown_melds(watched) == [("run", "AS 2S 3S")]
    assert watched.testid("pick-2S").get_attribute("aria-pressed") == "true"
    assert watched.query()["hand"] == ["AS 2S 3S"]
    # A second click on a picked card takes it out again; so does a click on the hand's card.
    watched.testid("pick-2S").click()
    watched.page.wait_for_function(
        "() => document.querySelector('[data-testid=hand-input]').value === 'AS 3S'")
    watched.testid("hand").get_by_test_id("card").first.click()
    watched.page.wait_for_function(
        "() => document.querySelector('[data-testid=hand-input]').value === '3S'")
    assert watched.testid("pick-JK").is_disabled()  # gin has no jokers


def test_wild_rank_box_only_for_a_cut_joker(watched: Watched) -> None:
    watched.open(link(variant="gin", hand=GIN_HAND))
    watched.done("result", GIN_HAND)
    assert watched.testid("wild-field").is_hidden()
    watched.testid("variant").select_option("indian13")
    assert watched.testid("wild-field").is_visible()
    assert watched.testid("wild-input").get_attribute("placeholder") == "7H"
    watched.testid("variant").select_option("basic")
    assert watched.testid("wild-field").is_hidden()
    assert "wild" not in watched.query()


def test_phone_width_has_no_sideways_scroll_and_the_answer_on_the_first_screen(
        browser: Any, base_url: str, shots: Path) -> None:
    context = browser.new_context(**PHONE)
    screen = PHONE_HEIGHT
    try:
        page = Watched(context.new_page(), base_url)
        for variant, hand, extra in (("gin", GIN_HAND, {}), ("indian13", INDIAN13_HAND, {"wild": "7H"})):
            page.open(link(variant=variant, hand=hand, **extra))
            page.done("result", hand)
            overflow = page.page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0
            # The answer comes before the hand's cards and the (folded) 53-card picker: its
            # headline figure is on the first screen.
            points = page.testid("deadwood-points").bounding_box()
            assert points["y"] + points["height"] <= screen, points
            assert page.page.locator("#picker-details").get_attribute("open") is None
            assert page.testid("result").bounding_box()["y"] < page.testid("hand").bounding_box()["y"]
            page.page.screenshot(path=str(shots / f"phone-{variant}.png"), full_page=True)
        # A tap on the folded picker opens it.
        page.page.locator("#picker-details > summary").click()
        assert page.testid("pick-AS").is_visible()
        assert not page.errors, page.errors
    finally:
        context.close()


def test_a_variants_list_that_failed_to_load_is_tried_again_and_the_link_kept(
        watched: Watched) -> None:
    """The page cannot work without the variants: when their load fails (a 429
    of the playground's lane, a service away) it says so with Try again, keeps
    the link's address and sends no solve; the second try loads the link's
    hand (audit 6: the page stayed empty for good and a Solve rewrote the
    address to variant=)."""
    limited = {"detail": [{"type": "rate_limited", "loc": ["header", "x-playground"],
                           "msg": "the playground's calls are limited; retry in 9 s"}]}
    calls = []

    def refuse_once(route: Any) -> None:
        calls.append(route.request.url)
        if len(calls) == 1:
            route.fulfill(status=429, headers={"Retry-After": "9"},
                          content_type="application/json", body=json.dumps(limited))
        else:
            route.continue_()

    watched.page.route("**/v1/variants", refuse_once)
    address = link(variant="gin", hand=GIN_HAND)
    watched.page.goto(watched.base_url + address)
    watched.done("result", state="error")
    assert "retry in 9 s" in watched.testid("result-status").inner_text()
    watched.testid("hand-input").fill("AS 2S 3S")
    watched.testid("hand-input").press("Enter")
    watched.page.wait_for_timeout(300)
    assert not any("/v1/solve" in url for url in watched.requests)
    assert "variant=gin" in watched.page.url
    watched.testid("variants-retry").click()
    watched.page.wait_for_selector("body[data-ready=true]")
    watched.done("result")
    assert watched.testid("variant").input_value() == "gin"


def test_no_deal_from_house_rules_the_service_refused(watched: Watched) -> None:
    """A link's rules of a billion decks: the service refuses them next to the
    box, and "Deal a random hand" says to fix them instead of building that
    deck (audit 6: the tab froze, then threw a RangeError)."""
    watched.open(link(variant="gin", hand=GIN_HAND, rules='{"decks": 1e9}'))
    watched.page.wait_for_selector("[data-testid=rules-error]:not([hidden])")
    watched.testid("deal-button").click()
    watched.done("result", state="error")
    assert "Fix the house rules" in watched.testid("result-status").inner_text()


def test_a_solve_the_service_never_answers_is_given_up_and_said(watched: Watched) -> None:
    """A service that takes a solve and never answers: after the pages' wait
    (30 s, ``ANSWER_WAIT_MS`` in table-api.js; the browser's clock run on) the
    answer panel says the service did not answer, instead of "Solving…" for
    good (audit 7: the game pages gave up, the playground never did)."""
    held: list[Any] = []
    watched.page.clock.install()
    watched.page.route("**/v1/solve", lambda route: held.append(route))
    watched.open(link(variant="gin", hand=GIN_HAND))
    watched.done("result", state="loading")
    for _ in range(200):  # the solve reaches the route while Playwright waits
        if held:
            break
        watched.page.wait_for_timeout(50)
    assert held, "the page sent no solve"
    watched.page.clock.run_for(31_000)
    watched.done("result", state="error")
    assert "did not answer within 30 s" in watched.testid("result-status").inner_text()
    for route in held:
        route.abort()


def test_a_fault_every_panel_sends_is_said_once_next_to_its_field(watched: Watched) -> None:
    """House rules the service refuses, with the discard and draw hints in use: the answer,
    the discard hint and the draw hint each send the rules and each get the same 422; the
    box says the fault once (audit of the pages: it said it three times over)."""
    hand = f"{GIN_HAND} 5S"
    watched.open(link(variant="gin", hand=hand, discard="1", top="4S", rules='{"ace":"wrong"}'))
    for section in ("result", "discard-hint", "draw-hint"):
        watched.done(section, hand, state="error")
    error = watched.testid("rules-error").inner_text()
    assert error.startswith("rules.ace: knob 'ace' must be one of"), error
    assert error.count("rules.ace") == 1, error

"""The playground with API keys on (``RUMMY_SOLVER_API_KEYS`` set on the test server).

The pages' own calls go through the playground's lane
(``api.server.playground_lane``, tested over HTTP in ``test_playground_lane.py``).
In headless Chromium: the variants list loads on ``/play``, a hand is solved,
and on ``/play/gin`` the Hint answers and the bot plays, all without a key.
With the lane off (``RUMMY_SOLVER_PLAYGROUND_RATE`` empty) the first call's
401 brings a box for a key; the key pasted there goes with every call after,
as ``Authorization``, on every page of the tab.  With the lane's rate used up,
the 429 brings the same box: a key has a rate of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.game_pages import GamePage
from tests.test_playground import GIN_HAND, serve_app
from tests.test_playground_lane import KEY, keyed_settings

GIN_SEED = 4
FAST = "level=novice&hint=novice&delay=0"


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """Keys on, the lane at its default rate."""
    with serve_app(keyed_settings()) as url:
        yield url


@pytest.fixture(scope="module")
def closed_url() -> Iterator[str]:
    """Keys on, no lane: every call needs a key."""
    with serve_app(keyed_settings(playground_rate="")) as url:
        yield url


@pytest.fixture(scope="module")
def limited_url() -> Iterator[str]:
    """Keys on, the lane at one call a minute."""
    with serve_app(keyed_settings(playground_rate="1/minute")) as url:
        yield url


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield context
    finally:
        context.close()


# ---------------------------------------------------------------------------
# In the browser


def test_the_pages_work_with_keys_on_without_one(context: Any, base_url: str, shots: Path) -> None:
    page = GamePage(context.new_page(), base_url)
    page.page.goto(base_url + f"/play?variant=gin&hand={GIN_HAND.replace(' ', '+')}")
    page.page.wait_for_selector("body[data-ready=true]")
    assert page.testid("variant").locator("option").count() >= 8  # the variants list loaded
    page.page.wait_for_selector("[data-testid=result][data-state=done]")
    assert page.testid("deadwood-points").inner_text() == "33"

    assert page.open(f"/play/gin?seed={GIN_SEED}&{FAST}") == "human"
    shown = page.hint()
    assert shown and shown[0]["recommended"]
    turns = int(page.testid("table").get_attribute("data-turn-count"))
    page.testid("moves").locator("[data-move=pass]").click()  # pass the upcard: the bot is to act
    page.page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=table]').dataset.turnCount) >= {turns + 2}"
        " || document.body.dataset.turn === 'over'")  # the bot played (or the hand ended)
    assert page.testid("api-key-form").count() == 0
    page.page.screenshot(path=str(shots / "keys-gin.png"), full_page=True)
    page.check()  # no 401, no 429, nothing from another host


def test_without_the_lane_the_page_asks_for_a_key(context: Any, closed_url: str) -> None:
    page = GamePage(context.new_page(), closed_url)
    sent: list[str | None] = []
    page.page.on("request", lambda r: sent.append(r.headers.get("authorization"))
                 if "/v1/" in r.url else None)
    page.page.goto(closed_url + "/play")
    form = page.testid("api-key-form")
    form.wait_for()
    assert "needs an API key" in form.inner_text()
    assert (401, closed_url + "/v1/variants") in page.answers
    page.testid("api-key-input").fill(KEY)
    page.testid("api-key-save").click()
    page.page.wait_for_selector("body[data-ready=true]")  # reloaded: the variants came
    assert page.testid("variant").locator("option").count() >= 8
    assert sent[-1] == f"Bearer {KEY}"
    assert page.open(f"/play/gin?seed={GIN_SEED}&{FAST}") == "human"  # the tab keeps the key
    assert page.hint()
    assert sent[-1] == f"Bearer {KEY}"
    assert page.testid("api-key-form").count() == 0
    page.answers.clear()  # the first 401 was the point
    page.check()


def test_a_refused_key_can_be_forgotten(context: Any, base_url: str) -> None:
    """A wrong key pasted into the tab went with every call, each refused, and the box could
    only replace it: "Forget the key" drops it and the calls go without one (the lane)."""
    page = GamePage(context.new_page(), base_url)
    page.page.goto(base_url + "/play")
    page.page.evaluate("() => sessionStorage.setItem('rummy-solver-api-key', 'not-a-key')")
    page.page.goto(base_url + f"/play?variant=gin&hand={GIN_HAND.replace(' ', '+')}")
    form = page.testid("api-key-form")
    form.wait_for()
    assert "The key this tab holds was refused" in form.inner_text()
    page.testid("api-key-forget").click()
    page.page.wait_for_selector("[data-testid=result][data-state=done]")
    assert page.testid("deadwood-points").inner_text() == "33"
    assert page.testid("api-key-form").count() == 0
    assert page.page.evaluate("() => sessionStorage.getItem('rummy-solver-api-key')") is None
    page.answers.clear()  # the refused key's 401s were the point
    page.check()


def test_a_key_the_tab_does_not_hold_cannot_be_forgotten(context: Any, closed_url: str) -> None:
    page = GamePage(context.new_page(), closed_url)
    page.page.goto(closed_url + "/play")
    page.testid("api-key-form").wait_for()
    assert not page.testid("api-key-forget").is_visible()
    page.answers.clear()
    page.check()


def test_past_the_lanes_rate_the_page_asks_for_a_key(context: Any, limited_url: str) -> None:
    """The lane's 429 says "retry in N s, or send an API key": the page offers the box for
    one (audit of the pages: only a 401 did, so a visitor holding a key could not use it)."""
    page = GamePage(context.new_page(), limited_url)
    page.page.goto(limited_url + f"/play?variant=gin&hand={GIN_HAND.replace(' ', '+')}")
    page.page.wait_for_selector("body[data-ready=true]")  # the variants: the lane's one call
    page.page.wait_for_selector("[data-testid=result][data-state=error]")
    assert (429, limited_url + "/v1/solve") in page.answers
    form = page.testid("api-key-form")
    assert "without an API key are used up" in form.inner_text()
    assert "send an API key" in form.inner_text()  # the service's words
    page.testid("api-key-input").fill(KEY)
    page.testid("api-key-save").click()
    page.page.wait_for_selector("[data-testid=result][data-state=done]")
    assert page.testid("deadwood-points").inner_text() == "33"
    assert page.testid("api-key-form").count() == 0
    page.answers.clear()  # the 429 was the point
    page.check()

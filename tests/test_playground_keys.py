"""The playground with API keys on (``RUMMY_SOLVER_API_KEYS`` set on the test server).

The pages' own calls go through the playground's lane
(``api.server.playground_lane``, tested over HTTP in ``test_playground_lane.py``).
In headless Chromium: the variants list loads on ``/play``, a hand is solved,
and on ``/play/gin`` the Hint answers and the bot plays, all without a key.
With the lane off (``RUMMY_SOLVER_PLAYGROUND_RATE`` empty) the first call's
401 brings a box for a key; the key pasted there goes with every call after,
as ``Authorization``, on every page of the tab.
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

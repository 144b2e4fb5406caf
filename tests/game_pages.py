"""What the browser tests of the game pages share: a page watched for what it
asks and what goes wrong in it, and the moves it offers and its Hint panel.

``WatchedPage`` records every request (and each ``POST /v1/advise`` body),
every answer's status, script errors and console errors; ``check`` fails a test
whose page asked another host, logged an error, or (unless expected) got a 4xx
or 5xx.  ``GamePage`` adds a table's turn loop as the gin and Indian pages show
it: whose turn (``body[data-turn]``), the phase, the moves offered, the Hint
panel's ranked moves, and playing the recommended move to the end;
``check_review_panel`` what the shared Review panel shows of an answer.
"""

from __future__ import annotations

import atexit
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from solver.review.params import LABELS

WAIT_MS = 20_000
"""How long a page may take to show what a test waits for."""

HTTP = httpx.Client()
"""The browser tests' own calls to the served app (``httpx.get``'s defaults): one client
kept, since ``httpx.get`` and ``httpx.post`` build a client, and its SSL context, per call
(70 ms each on a loaded machine; a referee test makes a hundred calls)."""
atexit.register(HTTP.close)


ADVICE_ROWS = """() => [...document.querySelectorAll("[data-testid=advice-move]")].map((row) => {
  const all = (testid) => [...row.querySelectorAll(`[data-testid=${testid}]`)];
  return {
    action: row.getAttribute("data-action"), card: row.getAttribute("data-card"),
    rank: row.getAttribute("data-rank"), expected: row.getAttribute("data-expected"),
    class: row.getAttribute("class"), confidence: row.getAttribute("data-confidence"),
    bar_classes: all("advice-bar").map((bar) => bar.getAttribute("class")),
    quality: all("advice-quality").map((quality) => quality.innerText),
    reasons: all("advice-reasons").map((reasons) => reasons.innerText),
  };
})"""
"""The Hint panel's rows as ``GamePage.hint`` reads them: each row's attributes, its bars'
classes and the text of its quality and reasons, in one call rather than a dozen per row."""


REVIEW_ROWS = """() => [...document.querySelectorAll("[data-testid=review-decision]")].map((row) => ({
  label: row.getAttribute("data-label"), seat: row.getAttribute("data-seat"),
  loss: [...row.querySelectorAll("[data-testid=review-loss]")].map((loss) => loss.innerText),
}))"""
"""The Review panel's decisions as ``check_review_panel`` reads them, in one call."""


def one(found: list[Any], testid: str) -> Any:
    """The one element of a row with ``testid`` that ``found`` holds (a locator's strictness)."""
    assert len(found) == 1, f"{len(found)} elements {testid} in a row"
    return found[0]


class WatchedPage:
    """A page, what it asked for and what went wrong in it."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.requests: list[str] = []
        self.answers: list[tuple[int, str]] = []
        self.advice_bodies: list[dict[str, Any]] = []
        self.errors: list[str] = []
        page.on("request", self._request)
        page.on("response", lambda r: self.answers.append((r.status, r.url)))
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", self._console)
        page.set_default_timeout(WAIT_MS)

    def _request(self, request: Any) -> None:
        self.requests.append(request.url)
        if request.url.endswith("/v1/advise"):
            self.advice_bodies.append(json.loads(request.post_data))

    def _console(self, message: Any) -> None:
        # A failed request is logged by the browser itself; the page shows it, as it should.
        if message.type == "error" and "Failed to load resource" not in message.text:
            self.errors.append(f"console: {message.text}")

    def testid(self, name: str) -> Any:
        return self.page.get_by_test_id(name)

    def attributes(self, selector: str, *names: str) -> list[dict[str, str | None]]:
        """The attributes ``names`` (None: absent) of every element ``selector`` matches, in
        the page's order: one call, where a locator takes one per element and attribute."""
        found: list[dict[str, str | None]] = self.page.evaluate(
            "([selector, names]) => [...document.querySelectorAll(selector)].map("
            "(element) => Object.fromEntries(names.map((name) => [name, element.getAttribute(name)])))",
            [selector, list(names)])
        return found

    def query(self) -> dict[str, list[str]]:
        return parse_qs(urlsplit(self.page.url).query)

    def no_overflow(self) -> bool:
        """Whether the page fits its width (no horizontal scrolling)."""
        return bool(self.page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))

    def check(self, *, failures_expected: bool = False) -> None:
        """No other host asked, no script or console error, no failed answer
        unless ``failures_expected``."""
        own = urlsplit(self.base_url).netloc
        foreign = [url for url in self.requests
                   if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != own]
        assert not foreign, f"the page asked another host: {foreign}"
        assert not self.errors, self.errors
        if not failures_expected:
            failed = [(status, url) for status, url in self.answers if status >= 400]
            assert not failed, failed


class GamePage(WatchedPage):
    """A game page's table: turns, moves offered, hints (see the module docstring)."""

    max_decisions = 60
    """A round of the game ends long before this many decisions of one player."""
    round_word = "hand"

    def open(self, path: str) -> str:
        self.page.goto(self.base_url + path)
        self.page.wait_for_selector("body[data-ready=true]")
        return self.turn()

    def turn(self) -> str:
        """Wait until the human may act, or the round is over; which of the two."""
        self.page.wait_for_selector("body[data-turn=human], body[data-turn=over]")
        return str(self.page.locator("body").get_attribute("data-turn"))

    def phase(self) -> str:
        return str(self.testid("table").get_attribute("data-phase"))

    def offered(self) -> set[tuple[str | None, str | None]]:
        """The moves the page lets the human make: its move buttons and its hand's cards."""
        moves = self.attributes("[data-testid=move]:enabled, [data-testid=hand-card]:enabled",
                                "data-move", "data-card")
        return {(move["data-move"], move["data-card"]) for move in moves}

    def hint(self) -> list[dict[str, Any]]:
        """Ask for a hint; every advised move as shown, in order."""
        self.testid("hint-button").click()
        self.page.wait_for_selector("[data-testid=hint-panel][data-state=done]")
        shown = []
        for row in self.page.evaluate(ADVICE_ROWS):
            bar, quality = one(row["bar_classes"], "advice-bar"), one(row["quality"], "advice-quality")
            shown.append({
                "action": row["action"], "card": row["card"], "rank": int(row["rank"]),
                "expected": float(row["expected"]),
                "recommended": "recommended" in (row["class"] or ""),
                "bars": len(row["bar_classes"]),
                "negative": "negative" in (bar or ""),
                "quality": quality,
                "confidence": row["confidence"],
                "rough_bar": "rough" in (bar or ""),
                "reasons": one(row["reasons"], "advice-reasons") if row["reasons"] else "",
            })
        return shown

    def ranking(self) -> str | None:
        """The rule the Hint panel says the moves are ranked by (None: not shown)."""
        rule = self.testid("advice-ranking")
        return None if rule.is_hidden() else str(rule.inner_text())

    def route_advice(self, seat: int, answer: dict[str, Any]) -> None:
        """Answer ``seat``'s ``POST /v1/advise`` with ``answer``; the other seats' go to the
        advisor."""

        def fulfil(route: Any) -> None:
            if json.loads(route.request.post_data)["me"] != seat:
                route.continue_()
                return
            route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

        self.page.route("**/v1/advise", fulfil)

    def take_the_hint(self) -> None:
        self.testid("advice-play").first.click()

    def play_by_hints(self) -> int:
        """Take the recommended move until the round ends; the decisions taken."""
        for decisions in range(self.max_decisions):
            if self.turn() == "over":
                return decisions
            shown = self.hint()
            assert {(m["action"], m["card"]) for m in shown} == self.offered(), shown
            self.take_the_hint()
        pytest.fail(f"the {self.round_word} did not end in {self.max_decisions} decisions")


def check_review_panel(game: WatchedPage, decisions: list[dict[str, Any]], seats: int,
                       shots: Path) -> None:
    """The Review panel (``review-panel.js``, both pages) shows ``decisions``
    of a ``POST /v1/review`` answer for ``seats`` players: a graph point per
    decision of each seat with labelled axes; a row per decision with its
    label (``unvalued`` for null), seat and loss; each player's summary; and
    on a click on the worst decision its best and played moves and the
    reason, without sideways scrolling (a screenshot in ``shots``)."""
    graph = game.testid("review-graph")
    for seat in range(seats):
        points = graph.locator(f"[data-testid=graph-point][data-seat='{seat}']")
        assert points.count() == sum(d["seat"] == seat for d in decisions), seat
    assert "decision" in game.testid("graph-x-label").text_content()
    assert "points lost" in game.testid("graph-y-label").text_content()
    rows = game.testid("review-decision")
    shown = game.page.evaluate(REVIEW_ROWS)
    assert len(shown) == len(decisions)
    for row, decision in zip(shown, decisions, strict=True):
        label = row["label"]
        assert label in (*LABELS, "unvalued")
        assert label == (decision["label"] or "unvalued")
        assert row["seat"] == str(decision["seat"])
        assert one(row["loss"], "review-loss")
    players = game.testid("review-player")
    assert {players.nth(i).get_attribute("data-seat")
            for i in range(players.count())} == {str(seat) for seat in range(seats)}
    worst = max(range(len(decisions)), key=lambda i: decisions[i]["points_lost"] or 0.0)
    assert game.testid("review-detail").is_hidden()
    rows.nth(worst).click()
    detail = game.testid("review-detail")
    assert detail.is_visible() and rows.nth(worst).get_attribute("aria-pressed") == "true"
    ranked = detail.get_by_test_id("review-rank")
    best, played = decisions[worst]["best"], decisions[worst]["played"]
    assert ranked.first.get_attribute("data-action") == best["action"]
    assert ranked.first.get_attribute("data-card") == best.get("card")
    assert ranked.count() == (1 if decisions[worst]["label"] == "best" else 2)
    assert ranked.last.get_attribute("data-action") == played["action"]
    assert detail.get_by_test_id("review-reason").inner_text()
    game.page.screenshot(path=str(shots / "review-decision.png"), full_page=True)
    assert game.no_overflow()


def check_a_refused_review_is_shown_and_retried(game: GamePage, code: str, event: int) -> int:
    """With ``POST /v1/review`` answered by a scripted 422 (``code`` at
    ``body.events.<event>``), the Review panel shows the error and no
    decision, the hand stays over and the button usable; asked again without
    the script, the review is done.  The decisions it shows then."""
    refused = {"detail": [{"type": code, "loc": ["body", "events", event],
                           "msg": "scripted refusal"}]}
    game.page.route("**/v1/review", lambda route: route.fulfill(
        status=422, content_type="application/json", body=json.dumps(refused)))
    game.testid("review-button").click()
    game.page.wait_for_selector("[data-testid=review][data-state=error]")
    status = game.testid("review-status").inner_text()
    assert "HTTP 422" in status and f"{code} at body.events.{event}" in status
    assert game.testid("review-decision").count() == 0
    assert game.turn() == "over" and game.testid("review-button").is_enabled()
    game.page.unroute("**/v1/review")
    game.testid("review-button").click()
    game.page.wait_for_selector("[data-testid=review][data-state=done]")
    game.answers.clear()  # the refusal above was made on purpose
    count: int = game.testid("review-decision").count()
    return count

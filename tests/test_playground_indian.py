"""Indian rummy against the bots (``/play/indian``) in a real browser, and its referee against the advisor.

The page deals a seeded 13-card Indian rummy deal (two decks and two printed jokers,
a cut card whose rank is wild) for you and one to three bots, keeps the public
history, and asks ``POST /v1/advise`` for each bot's move (from that bot's seat)
and for hints (from yours); a show is checked by ``POST /v1/validate`` and the deal
scored by ``POST /v1/score/round``.  The browser tests play by clicking (you take
the Hint panel's recommended move; bots and hints at level novice, no bot delay,
so a deal takes seconds) and check what the page offers and shows: the drop's cost
beside playing on, the summary's points against the rules of ``docs/RULES.md``
(a first drop pays 10, a later one 40, a loser its count capped at 80 and halved
before its first turn, a wrong show 80), no console errors, nothing but this
server, no horizontal scrolling on a phone.  The review tests play a scripted deal
to its end and click Review (the deal as a recorded game to ``POST /v1/review``, its
answer drawn: a graph line per player, labels, a decision's moves).  The referee test
drives the page's own referee (``indian-referee.js``, no clicking) through whole deals
and checks at every turn that ``/v1/advise`` accepts the view the page would send,
refuses the same view from a seat whose turn it is not, and lists exactly the moves
the page offers; at the end the deal's record replays through ``POST /v1/review``.
The bots' style: lively bots (the default) make a game of every one of the 13 deals
where the advisor's own drops ended 5 at once, and a scripted advisor shows which
drops each style takes while your Hint stays the advisor's.

The tests do not depend on which moves the advisor prefers: what they play by
hand (drawing from the stock, throwing the card drawn, dropping, a show) is always
legal, the bots of the scripted tests are scripted, and otherwise they follow the
recommendation until the deal ends, whichever way it ends.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from solver.play import words
from tests.game_pages import (
    HTTP,
    GamePage,
    check_a_refused_review_is_shown_and_retried,
    check_review_panel,
)
from tests.test_playground import PHONE

SEED = 4
"""Deal 1 of this seed for three players (the page's default table): today's advisor has you
drop at once and a bot show after 23 moves."""
LONG_SEED = 10
"""Deal 1 for three players: today's advisor has you play 14 decisions and show."""
SHOW_SEED = 11
"""Deal 1 for two players: your 14 cards after the first draw make no valid show."""
FAST = {"level": "novice", "hint": "novice", "delay": "0"}
MAX_DECISIONS = 80
"""A deal ends (a show, drops, or the 65-card stock gone) long before this many decisions of one player."""
DROP = {"first": 10, "middle": 40}
"""drop_first and drop_middle of the indian13 preset (docs/RULES.md, section 12)."""
POINTS_CAP = 80
WRONG_DECLARATION = 80
ADVICE_FIELDS = {"game", "wild_rank", "players", "me", "dealer", "hand", "upcard", "history",
                 "discard_pile", "stock_count", "level", "seed"}


def indian_link(seed: int, deal: int = 1, players: int = 3, **params: str) -> str:
    query = {"seed": str(seed), "deal": str(deal), "players": str(players), **FAST, **params}
    return "/play/indian?" + "&".join(f"{k}={v}" for k, v in query.items())


def post(base_url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return HTTP.post(base_url + path, json=body, timeout=30.0)


# ---------------------------------------------------------------------------
# Fixtures


class IndianPage(GamePage):
    """The Indian rummy page (``GamePage``): its cut card, your hand and the deal's summary."""

    max_decisions = MAX_DECISIONS
    round_word = "deal"

    def cut_card(self) -> str:
        card: str = self.testid("cut-card").get_by_test_id("card").get_attribute("data-card")
        return card

    def hand(self) -> list[str]:
        return [str(card["data-card"]) for card in self.attributes(
            "[data-testid=your-hand] [data-testid=hand-card]", "data-card")]

    def summary(self) -> list[dict[str, Any]]:
        out = []
        for attr in self.attributes("[data-testid=summary-row]", *SUMMARY_ATTRIBUTES):
            assert attr["data-hand"] is not None, attr
            out.append({
                "seat": int(str(attr["data-seat"])), "role": attr["data-role"],
                "points": int(str(attr["data-points"])),
                "pays": int(attr["data-pays"]) if attr["data-pays"] else None,
                "count": int(attr["data-count"]) if attr["data-count"] else None,
                "had_turn": attr["data-had-turn"] == "true", "dropped": attr["data-dropped"] or None,
                "hand": attr["data-hand"].split(),
            })
        return out


SUMMARY_ATTRIBUTES = ("data-seat", "data-role", "data-points", "data-pays", "data-count",
                      "data-had-turn", "data-dropped", "data-hand")


@pytest.fixture()
def indian(browser: Any, base_url: str) -> Iterator[IndianPage]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = IndianPage(context.new_page(), base_url)
    try:
        yield page
        page.check()
    finally:
        context.close()


# ---------------------------------------------------------------------------
# The rules the summary must follow


def expected_pays(base_url: str, row: dict[str, Any], wild_rank: str, rummy: bool) -> int:
    """What a loser pays a valid show, by docs/RULES.md section 10: a dropped player its drop,
    any other its count (the exact solver's least count of its cards) capped at 80, halved
    (rounded down) before its first turn, else doubled when the winner went out on its first
    turn."""
    if row["dropped"]:
        return DROP[str(row["dropped"])]
    solved = post(base_url, "/v1/solve", {"variant": "indian13", "hand": row["hand"],
                                          "wild_rank": wild_rank})
    assert solved.status_code == 200, solved.text
    count = int(solved.json()["deadwood_points"])
    assert row["count"] == count, row
    pays = min(count, POINTS_CAP)
    if not row["had_turn"]:
        return pays // 2
    return pays * 2 if rummy else pays


def check_summary(indian: IndianPage, base_url: str, players: int,
                  totals_before: list[int] | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The summary is shown, has a row per player, and its points are the rules' (see
    ``expected_pays``); the running totals grew by them.  The ending and the rows."""
    outcome = indian.testid("outcome")
    assert outcome.is_visible()
    assert indian.testid("outcome-text").inner_text()
    ending = str(outcome.get_attribute("data-ending"))
    rows = indian.summary()
    assert [r["seat"] for r in rows] == list(range(players))
    points = [r["points"] for r in rows]
    assert outcome.get_attribute("data-points") == ",".join(map(str, points))
    before = totals_before or [0] * players
    totals = [int(indian.testid(f"total-{s}").inner_text()) for s in range(players)]
    assert totals == [b + p for b, p in zip(before, points, strict=True)]
    wild_rank = indian.cut_card()
    if ending == "void":
        assert points == [0] * players
    elif ending == "dropped":
        left = [r for r in rows if not r["dropped"]]
        assert len(left) == 1 and left[0]["role"] == "winner"
        for row in rows:
            if row["dropped"]:
                assert row["pays"] == DROP[row["dropped"]] and row["points"] == -row["pays"]
        assert left[0]["points"] == sum(DROP[r["dropped"]] for r in rows if r["dropped"])
    else:
        assert ending == "declare", ending
        valid = outcome.get_attribute("data-valid") == "true"
        declarer = [r for r in rows if r["role"] in ("winner", "wrong_declaration")]
        assert len(declarer) == 1
        if not valid:
            assert declarer[0]["role"] == "wrong_declaration"
            assert declarer[0]["points"] == -WRONG_DECLARATION
            assert all(r["points"] == 0 for r in rows if r is not declarer[0])
            assert indian.testid("show-problems").count() == 1
        else:
            rummy = outcome.get_attribute("data-rummy") == "true"
            assert declarer[0]["role"] == "winner"
            paid = 0
            for row in rows:
                if row is declarer[0]:
                    continue
                pays = expected_pays(base_url, row, wild_rank, rummy)
                assert row["pays"] == pays and row["points"] == -pays, row
                paid += pays
            assert declarer[0]["points"] == paid
            assert sum(points) == 0
    # every hand is face up at the end
    for seat in range(1, players):
        bot = indian.page.locator(f"[data-testid=bot-seat][data-seat='{seat}']")
        shown = bot.get_by_test_id("bot-hand").get_by_test_id("card").count()
        assert shown == len(rows[seat]["hand"]) or rows[seat]["dropped"], seat
    return ending, rows


# ---------------------------------------------------------------------------
# The page and its policy


def test_page_is_served_with_a_strict_policy_and_no_inline_code(base_url: str) -> None:
    page = HTTP.get(base_url + "/play/indian")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
    html = page.text
    scripts = re.findall(r"<script\b([^>]*)>", html)
    assert scripts and all('src="../play-assets/' in attrs for attrs in scripts)
    assert not re.search(r"<script\b[^>]*>\s*(?!</script>)\S", html)  # nothing between the tags
    assert "<style" not in html and not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)  # no inline handlers
    for asset in ("indian.js", "indian-referee.js", "indian.css"):
        answer = HTTP.get(f"{base_url}/play-assets/{asset}")
        assert answer.status_code == 200 and "default-src 'none'" in answer.headers["content-security-policy"]
    assert HTTP.get(base_url + "/play-assets/indian.html").status_code == 404
    assert 'href="play/indian"' in HTTP.get(base_url + "/play").text


# ---------------------------------------------------------------------------
# Playing by clicking


@pytest.mark.parametrize("seed", [SEED, pytest.param(LONG_SEED, marks=pytest.mark.slow)])
def test_a_whole_deal_played_by_hints(indian: IndianPage, shots: Path, base_url: str, seed: int) -> None:
    assert indian.open(indian_link(seed)) == "human"  # deal 1: the last bot deals, you play first
    assert len(indian.hand()) == 13
    assert indian.testid("stock-count").inner_text() == str(106 - 3 * 13 - 2)
    assert indian.page.locator("[data-testid=bot-seat]").count() == 2
    assert indian.phase() == "draw"
    top = indian.testid("pile-top").get_by_test_id("card").get_attribute("data-card")
    assert indian.offered() == {("take_discard", top), ("draw_stock", None), ("drop", None)}

    # The first turn's hint ranks the three moves and sets the first drop beside playing on.
    shown = indian.hint()
    assert {(m["action"], m["card"]) for m in shown} == indian.offered()
    assert [m["rank"] for m in shown] == [1, 2, 3]
    assert [m["recommended"] for m in shown] == [True, False, False]
    assert all(m["bars"] == 1 for m in shown)
    drop = next(m for m in shown if m["action"] == "drop")
    assert drop["expected"] == -DROP["first"] and drop["quality"] == "exact"
    assert f"dropping now costs {DROP['first']} (first drop)" in drop["reasons"]
    advice = indian.testid("drop-advice")
    assert advice.is_visible()
    assert float(advice.get_attribute("data-drop")) == -DROP["first"]
    on = max(m["expected"] for m in shown if m["action"] != "drop")
    assert float(advice.get_attribute("data-play-on")) == on
    assert indian.testid("drop-now").inner_text() == f"Drop now: −{DROP['first']}"
    assert indian.testid("play-on").inner_text().startswith("play on: ")
    indian.page.screenshot(path=str(shots / f"first-hint-{seed}.png"), full_page=True)

    indian.take_the_hint()
    decisions = indian.play_by_hints()
    assert decisions >= 0
    ending, rows = check_summary(indian, base_url, 3)
    assert ending in ("declare", "dropped", "void")
    indian.page.screenshot(path=str(shots / f"deal-over-{seed}.png"), full_page=True)
    # Every bot asked for its own seat only, with nothing beyond the public fields.
    seats = {body["me"] for body in indian.advice_bodies}
    assert seats <= {0, 1, 2} and 0 in seats
    assert all(set(body) == ADVICE_FIELDS and body["players"] == 3 and body["game"] == "indian13"
               for body in indian.advice_bodies)
    assert all(body["wild_rank"] == indian.cut_card() for body in indian.advice_bodies)

    points = [r["points"] for r in rows]
    indian.testid("next-deal").click()
    indian.turn()
    query = indian.query()
    assert query["seed"] == [str(seed)] and query["deal"] == ["2"] and query["players"] == ["3"]
    if any(points):
        assert query["score"] == [",".join(map(str, points))]
    assert "you deal" in indian.testid("deal-note").inner_text()
    assert [int(indian.testid(f"total-{s}").inner_text()) for s in range(3)] == points


def _answer_with(route: Any, move: dict[str, Any], hand: list[str]) -> None:
    """Fulfil a bot's /v1/advise with ``move`` as the only move, in the phase
    its ``hand`` is in (14 cards: after the draw)."""
    value = {"move": move, "expected_points": 0.0, "win_probability": 0.0,
             "match_win_probability": None, "exact": False, "samples": 1, "standard_error": None,
             "reasons": ["scripted"]}
    route.fulfill(status=200, content_type="application/json", body=json.dumps({
        "game": "indian13", "phase": "discard" if len(hand) == 14 else "draw",
        "recommended": value, "moves": [value], "level": "novice", "seed": 0, "complete": True,
        "elapsed_ms": 0.0}))


def scripted_bot(route: Any) -> None:
    """Answer a bot's /v1/advise with a line that never ends the deal: draw from the stock,
    throw the card drawn.  The human's hints go to the advisor."""
    body = json.loads(route.request.post_data)
    if body["me"] == 0:
        route.continue_()
        return
    hand = body["hand"]
    move: dict[str, Any] = {"action": "discard", "card": hand[-1]} if len(hand) == 14 \
        else {"action": "draw_stock"}
    _answer_with(route, move, hand)


ISSUE_SEEDS = range(13)
"""Deal 1 of these seeds for three players: with bots that took the advisor's every move, in 5
of them every bot dropped on its first turn (issue 38, item 15)."""


@pytest.mark.slow
def test_lively_bots_make_a_game_of_every_deal(indian: IndianPage) -> None:
    """The page's default bot style: in none of the 13 deals does every bot drop on its first
    turn (you draw from the stock and throw the card drawn; then each bot has had its turn)."""
    all_dropped = []
    for seed in ISSUE_SEEDS:
        assert indian.open(indian_link(seed)) == "human"
        assert indian.testid("bot-style").input_value() == "lively"
        indian.testid("moves").locator("[data-move=draw_stock]").click()
        assert indian.turn() == "human" and indian.phase() == "discard"
        indian.testid("your-hand").locator("[data-testid=hand-card].new").first.click()
        indian.turn()  # both bots have played their first turn (or the deal is over)
        seats = indian.page.locator("[data-testid=bot-seat]")
        dropped = [seats.nth(i).get_attribute("data-dropped") for i in range(seats.count())]
        if all(d == "first" for d in dropped):
            all_dropped.append(seed)
    assert not all_dropped, f"every bot dropped at once in deal 1 of seeds {all_dropped}"


def advising_a_drop(win: float) -> Any:
    """A bot's /v1/advise answered with a drop recommended over drawing from the stock, which
    wins ``win`` of the deals (after drawing: throw the card drawn); your hints go to the
    advisor."""

    def answer(route: Any) -> None:
        body = json.loads(route.request.post_data)
        if body["me"] == 0:
            route.continue_()
            return
        hand = body["hand"]

        def value(move: dict[str, Any], points: float, chance: float) -> dict[str, Any]:
            return {"move": move, "expected_points": points, "win_probability": chance,
                    "match_win_probability": None, "exact": False, "samples": 16,
                    "standard_error": 3.0, "reasons": ["scripted"]}

        if len(hand) == 14:
            moves = [value({"action": "discard", "card": hand[-1]}, -20.0, win)]
        else:
            moves = [value({"action": "drop"}, -10.0, 0.0),
                     value({"action": "draw_stock"}, -25.0, win)]
        route.fulfill(status=200, content_type="application/json", body=json.dumps({
            "game": "indian13", "phase": "discard" if len(hand) == 14 else "draw",
            "recommended": moves[0], "moves": moves, "level": "novice", "seed": 0,
            "complete": True, "elapsed_ms": 0.0}))

    return answer


@pytest.mark.parametrize(("style", "win", "drops"), [
    ("lively", 0.3, False), ("lively", 0.05, True), ("advisor", 0.3, True)])
def test_the_bot_style_decides_the_bots_drops_and_the_hint_stays_the_advisors(
        indian: IndianPage, style: str, win: float, drops: bool) -> None:
    indian.page.route("**/v1/advise", advising_a_drop(win))
    styled = {} if style == "lively" else {"style": style}  # lively: the default, not in the link
    link = indian_link(SEED, 1, 2, **styled)
    assert indian.open(link) == "human"
    assert indian.testid("bot-style").input_value() == style
    assert indian.query().get("style") == ([style] if style != "lively" else None)
    indian.testid("moves").locator("[data-move=draw_stock]").click()
    assert indian.turn() == "human"
    indian.testid("your-hand").locator("[data-testid=hand-card].new").first.click()
    bot = indian.page.locator("[data-testid=bot-seat][data-seat='1']")
    if drops:
        assert indian.turn() == "over"
        assert bot.get_attribute("data-dropped") == "first"
        return
    assert indian.turn() == "human" and indian.phase() == "draw"
    assert bot.get_attribute("data-dropped") == ""
    assert "playing on where the advisor would drop" in indian.testid("last-moves").inner_text()
    # Your hint is the advisor's own: the drop beside playing on, as it ranks them.
    shown = indian.hint()
    drop = next(m for m in shown if m["action"] == "drop")
    assert drop["expected"] == -DROP["middle"]
    assert indian.testid("drop-advice").is_visible()


def test_hint_panel_shows_the_ranking_rule_and_marks_rough_figures(indian: IndianPage) -> None:
    assert indian.open(indian_link(SEED)) == "human"
    top = indian.testid("pile-top").get_by_test_id("card").get_attribute("data-card")

    def value(move: dict[str, Any], points: float, confidence: str) -> dict[str, Any]:
        return {"move": move, "expected_points": points, "win_probability": 0.3,
                "match_win_probability": None, "exact": confidence == "exact", "samples": 16,
                "standard_error": None if confidence == "exact" else 4.0, "reasons": ["scripted"],
                "searched": confidence != "rough", "confidence": confidence}

    moves = [value({"action": "draw_stock"}, -6.0, "ranked"), value({"action": "drop"}, -10.0, "exact"),
             value({"action": "take_discard", "card": top}, -3.0, "rough")]
    rule = "expected points, the plainest move first unless the search is sure"
    indian.route_advice(0, {"game": "indian13", "phase": "draw", "recommended": moves[0],
                            "moves": moves, "level": "novice", "seed": 1, "complete": True,
                            "elapsed_ms": 1.0, "ranked_by": "expected_points", "ranking": rule})
    shown = indian.hint()
    assert [m["confidence"] for m in shown] == ["ranked", "exact", "rough"]
    assert [("(rough)" in m["quality"], m["rough_bar"]) for m in shown] == [
        (False, False), (False, False), (True, True)]
    assert indian.ranking() == rule
    assert indian.testid("drop-advice").is_visible()  # the drop beside playing on, as before


def test_a_later_drop_costs_40_and_ends_a_two_player_deal(indian: IndianPage, shots: Path,
                                                           base_url: str) -> None:
    indian.page.route("**/v1/advise", scripted_bot)
    assert indian.open(indian_link(SEED, players=2)) == "human"
    indian.testid("moves").locator("[data-move=draw_stock]").click()
    assert indian.turn() == "human" and indian.phase() == "discard"
    assert len(indian.hand()) == 14
    assert indian.testid("show-mode").is_visible()
    drawn = indian.testid("your-hand").locator("[data-testid=hand-card].new")
    assert drawn.count() >= 1
    drawn.first.click()
    assert indian.turn() == "human" and indian.phase() == "draw"  # the bot drew and threw
    assert int(indian.testid("table").get_attribute("data-turn-count")) == 4
    shown = indian.hint()
    drop = next(m for m in shown if m["action"] == "drop")
    assert drop["expected"] == -DROP["middle"]
    assert f"dropping now costs {DROP['middle']} (middle drop)" in drop["reasons"]
    assert indian.testid("drop-now").inner_text() == f"Drop now: −{DROP['middle']}"
    assert "middle drop" in indian.testid("drop-advice").inner_text()
    indian.page.screenshot(path=str(shots / "middle-drop-hint.png"), full_page=True)
    indian.testid("moves").locator("[data-move=drop]").click()
    assert indian.turn() == "over"
    ending, rows = check_summary(indian, base_url, 2)
    assert ending == "dropped"
    assert [(r["dropped"], r["points"]) for r in rows] == [("middle", -40), (None, 40)]


def test_a_wrong_show_costs_80_and_nobody_else_pays(indian: IndianPage, shots: Path,
                                                   base_url: str) -> None:
    assert indian.open(indian_link(SHOW_SEED, players=2)) == "human"
    indian.testid("moves").locator("[data-move=draw_stock]").click()
    assert indian.turn() == "human" and indian.phase() == "discard"
    # These 14 cards make no valid show: the page offers no declaration ...
    assert not any(action == "declare" for action, _ in indian.offered())
    # ... but a player may still show, and pays for a wrong one.
    indian.testid("show-mode").check()
    cards = indian.testid("your-hand").locator("[data-testid=hand-card]:enabled")
    assert cards.count() == 14 and cards.first.get_attribute("data-move") == "declare"
    thrown = cards.first.get_attribute("data-card")
    cards.first.click()
    assert indian.turn() == "over"
    outcome = indian.testid("outcome")
    assert outcome.get_attribute("data-ending") == "declare"
    assert outcome.get_attribute("data-valid") == "false"
    assert "declared wrongly" in indian.testid("outcome-text").inner_text()
    assert thrown in (indian.testid("pile-top").get_by_test_id("card").get_attribute("data-card"),)
    assert check_summary(indian, base_url, 2)[0] == "declare"
    assert [r["points"] for r in indian.summary()] == [-WRONG_DECLARATION, 0]
    indian.page.screenshot(path=str(shots / "wrong-show.png"), full_page=True)


def bots_drop_after_you(route: Any) -> None:
    """Answer a bot's /v1/advise with a short line: draw from the stock and throw the card
    drawn, and drop once someone has dropped.  Your hints go to the advisor."""
    body = json.loads(route.request.post_data)
    if body["me"] == 0:
        route.continue_()
        return
    hand = body["hand"]
    if len(hand) == 14:
        move: dict[str, Any] = {"action": "discard", "card": hand[-1]}
    elif any(event["action"] == "drop" for event in body["history"]):
        move = {"action": "drop"}
    else:
        move = {"action": "draw_stock"}
    _answer_with(route, move, hand)


def test_review_after_the_deal(indian: IndianPage, shots: Path) -> None:
    """Three players, the bots scripted: everyone draws from the stock and throws the card
    drawn, then you drop and bot 1 drops (bot 2 collects).  Review sends the deal as a
    recorded game (the whole deal, the cut card, every action) to POST /v1/review, which
    takes it, and the page shows a graph line per player, every decision's label and loss,
    and a decision's moves on a click."""
    indian.page.route("**/v1/advise", bots_drop_after_you)
    assert indian.open(indian_link(SEED)) == "human"
    indian.testid("moves").locator("[data-move=draw_stock]").click()
    assert indian.turn() == "human" and indian.phase() == "discard"
    indian.testid("your-hand").locator("[data-testid=hand-card].new").first.click()
    assert indian.turn() == "human" and indian.phase() == "draw"
    assert indian.testid("review").is_hidden()
    indian.testid("moves").locator("[data-move=drop]").click()
    assert indian.turn() == "over"
    assert indian.testid("outcome").get_attribute("data-ending") == "dropped"
    turns = int(indian.testid("table").get_attribute("data-turn-count"))
    assert turns == 8
    with indian.page.expect_response("**/v1/review") as sent:
        indian.testid("review-button").click()
    response = sent.value
    assert response.status == 200, response.text()
    record = json.loads(response.request.post_data)
    answer = response.json()
    indian.page.wait_for_selector("[data-testid=review][data-state=done]")
    indian.page.screenshot(path=str(shots / "review.png"), full_page=True)

    # The record: every seat's dealt cards, the upcard, the cut card as advise takes it, and
    # every action in the advisor's words, each stock draw with its card.
    assert record["game"] == "indian13" and record["players"] == ["you", "bot-1", "bot-2"]
    assert record["dealer"] == 2  # deal 1: the last seat deals, you play first
    assert [len(hand) for hand in record["deal"]["hands"]] == [13, 13, 13]
    assert record["deal"]["wild_rank"] == indian.cut_card()
    events = record["events"]
    assert len(events) == turns
    assert [(e["player"], e["action"]) for e in events][-2:] == [(0, "drop"), (1, "drop")]
    assert all(("drawn" in e) == (e["action"] == "draw_stock") for e in events)
    assert {e["action"] for e in events} <= set(words.INDIAN.moves)
    assert "score" not in record  # gin's match score: an Indian deal has none
    # The answer replays it whole: one decision per event, every one reviewed.
    assert answer["complete"] and answer["reviewed"] == answer["total"] == len(events)
    assert answer["ending"] == "drops"
    decisions = answer["decisions"]
    assert [d["events"] for d in decisions] == [[i, i] for i in range(len(events))]
    assert [d["seat"] for d in decisions] == [e["player"] for e in events]

    # The graph, the list, the players and a click on the worst decision (both pages' panel).
    check_review_panel(indian, decisions, 3, shots)
    graph = indian.testid("review-graph")
    assert [graph.get_by_test_id("graph-legend").nth(i).text_content() for i in range(3)] == [
        "You", "Bot 1", "Bot 2"]
    rows = indian.testid("review-decision")
    assert "You drop" in rows.nth(6).inner_text() and "Bot 1 drops" in rows.nth(7).inner_text()
    # The next deal clears the review.
    indian.testid("next-deal").click()
    indian.turn()
    assert indian.testid("review").is_hidden()


def test_review_errors_are_shown_in_the_panel(indian: IndianPage) -> None:
    assert indian.open(indian_link(SEED, players=2)) == "human"
    indian.testid("moves").locator("[data-move=drop]").click()  # a first drop ends a deal of two
    assert indian.turn() == "over"
    # your drop, the only decision, once the refused review is asked again
    assert check_a_refused_review_is_shown_and_retried(indian, "drawn_mismatch", 0) == 1


# ---------------------------------------------------------------------------
# A phone, and errors


def test_phone_width_has_no_horizontal_overflow(browser: Any, base_url: str, shots: Path) -> None:
    context = browser.new_context(**PHONE)
    try:
        indian = IndianPage(context.new_page(), base_url)
        indian.open(indian_link(SHOW_SEED, players=4))
        assert indian.page.locator("[data-testid=bot-seat]").count() == 3
        indian.hint()
        assert indian.testid("drop-advice").is_visible()
        assert indian.no_overflow(), "the first turn scrolls sideways"
        indian.page.screenshot(path=str(shots / "phone-first-turn.png"), full_page=True)
        indian.testid("moves").locator("[data-move=draw_stock]").click()
        indian.turn()
        assert len(indian.hand()) == 14 and indian.no_overflow()
        indian.testid("show-mode").check()
        indian.testid("your-hand").locator("[data-testid=hand-card]:enabled").first.click()
        assert indian.turn() == "over"
        assert indian.testid("summary").is_visible() and indian.no_overflow()
        indian.page.screenshot(path=str(shots / "phone-summary.png"), full_page=True)
        indian.check()
    finally:
        context.close()


def test_api_errors_are_shown_and_the_deal_goes_on(indian: IndianPage) -> None:
    indian.open(indian_link(SEED))
    overloaded = {"detail": [{"type": "overloaded", "loc": [], "msg": "the solvers are busy"}]}
    indian.page.route("**/v1/advise", lambda route: route.fulfill(
        status=503, headers={"Retry-After": "3"}, content_type="application/json",
        body=json.dumps(overloaded)))
    indian.testid("hint-button").click()
    indian.page.wait_for_selector("[data-testid=hint-panel][data-state=error]")
    status = indian.testid("hint-status").inner_text()
    assert "HTTP 503" in status and "the solvers are busy" in status and "try again in 3 s" in status
    assert len(indian.hand()) == 13  # the table stays
    indian.page.unroute("**/v1/advise")
    limited = {"detail": [{"type": "rate_limited", "loc": ["header", "x-playground"],
                           "msg": "the playground's calls are limited; retry in 56 s"}]}
    indian.page.route("**/v1/advise", lambda route: route.fulfill(
        status=429, headers={"Retry-After": "56"}, content_type="application/json",
        body=json.dumps(limited)))
    indian.testid("hint-button").click()
    indian.testid("hint-status").filter(has_text="retry in 56 s").wait_for()
    status = indian.testid("hint-status").inner_text()
    assert "HTTP 429" in status and "try again in" not in status  # the wait said once

    indian.page.unroute("**/v1/advise")
    indian.page.route("**/v1/hints/discard", lambda route: route.abort())
    indian.testid("moves").locator("[data-move=draw_stock]").click()
    indian.page.wait_for_selector("body[data-turn=error]")
    assert "did not answer" in indian.testid("error-text").inner_text()
    indian.page.unroute("**/v1/hints/discard")
    indian.testid("retry").click()
    assert indian.turn() == "human" and indian.phase() == "discard"
    assert indian.testid("error").is_hidden()
    indian.answers.clear()  # the failures above were made on purpose


def test_a_mistyped_seed_is_refused_and_the_deal_goes_on(indian: IndianPage) -> None:
    """A seed typed wrong and "New game with this seed": the page says what a seed must be
    and the deal in play goes on (audit 8: the table stopped for good, its moves and cards
    dead and no Try again, until a reload)."""
    assert indian.open(indian_link(SEED)) == "human"
    indian.testid("seed-input").fill("-3")
    indian.testid("new-game").click()
    assert "whole number" in indian.testid("error-text").inner_text()
    assert indian.testid("error").is_visible() and indian.testid("retry").is_hidden()
    assert indian.turn() == "human" and indian.query()["seed"] == [str(SEED)]
    indian.testid("moves").locator("[data-move=draw_stock]").click()
    assert indian.turn() == "human" and indian.phase() == "discard"
    assert len(indian.hand()) == 14 and indian.testid("error").is_hidden()


# ---------------------------------------------------------------------------
# The referee, turn by turn: every request of whole deals


@pytest.mark.parametrize(("seed", "players"), [pytest.param(29, 3, marks=pytest.mark.slow),
                                              pytest.param(3, 4, marks=pytest.mark.slow),
                                              pytest.param(SHOW_SEED, 2, marks=pytest.mark.slow),
                                              (0, 2)])
def test_referee_requests_are_accepted_at_every_turn(browser: Any, base_url: str, seed: int,
                                                     players: int) -> None:
    """Every seat plays the advisor's recommendation through deal 1 of `seed` on the page's
    own referee (today: a bot shows after 57 moves for seed 29, after 46 for seed 3 with
    four players; seat 0 shows after 42 for seed 11 with two; with two, seed 0 reaches a
    show after 16 moves of every kind, the default lane's deal).  At every turn:
    /v1/advise accepts the acting seat's view (no 422) and refuses another seat's (not
    its turn); a view holds the public fields and its own cards only; the moves the page
    would offer (with /v1/hints/discard saying whether there is a valid show) are the
    moves the advisor ranks; the drop costs what the rules say.  At the end the show is
    checked by /v1/validate and the deal scored by /v1/score/round as the rules say."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base_url + indian_link(seed, players=players))
        page.wait_for_selector("body[data-ready=true]")
        page.evaluate("([seed, players]) => { window.referee = new IndianReferee.Game(seed, 1, players); }",
                      [seed, players])
        ids = ["you", *(f"bot-{k}" for k in range(1, players))]
        early = page.evaluate("(ids) => { try { referee.record(ids); return null; } "
                              "catch (error) { return error.message; } }", ids)
        assert early and "not over" in early  # a record shows every card: only after the deal
        for turns in range(players * MAX_DECISIONS):
            now = page.evaluate("() => ({phase: referee.phase, seat: referee.toAct, hands: referee.hands, "
                                "active: referee.active, canDrop: referee.canDrop})")
            if now["phase"] == "over":
                break
            seat = now["seat"]
            view = page.evaluate("(seat) => referee.adviceRequest(seat, {level: 'novice'})", seat)
            assert set(view) == ADVICE_FIELDS
            assert view["hand"] == now["hands"][seat] and len(view["hand"]) == (
                13 if now["phase"] == "draw" else 14)
            answer = post(base_url, "/v1/advise", view)
            assert answer.status_code == 200, (turns, view, answer.text)
            other = next(s for s in now["active"] if s != seat)
            refused = post(base_url, "/v1/advise", page.evaluate(
                "(seat) => referee.adviceRequest(seat, {level: 'novice'})", other))
            assert refused.status_code == 422, refused.text
            assert refused.json()["detail"][0]["type"] == "not_your_turn"
            advice = answer.json()
            assert advice["phase"] == now["phase"]
            hint = None
            if now["phase"] == "discard":
                request = page.evaluate("() => referee.discardHintRequest()")
                hint = post(base_url, "/v1/hints/discard", request)
                assert hint.status_code == 200, hint.text
            legal = page.evaluate("(hint) => referee.legalMoves(referee.declarationFrom(hint))",
                                  hint.json() if hint else None)
            assert sorted((m["action"], m.get("card") or "") for m in legal) == sorted(
                (m["move"]["action"], m["move"].get("card") or "") for m in advice["moves"]), turns
            if now["phase"] == "draw":
                drop = next(m for m in advice["moves"] if m["move"]["action"] == "drop")
                assert drop["exact"] and drop["expected_points"] == -DROP[now["canDrop"]]
            page.evaluate("(move) => referee.apply(move)", advice["recommended"]["move"])
        else:
            pytest.fail(f"the deal did not end in {players * MAX_DECISIONS} turns")
        assert turns >= 1
        ending = page.evaluate("() => referee.ending")
        if ending == "declare":
            report = post(base_url, "/v1/validate", page.evaluate("() => referee.validateRequest()"))
            assert report.status_code == 200, report.text
            # the advisor offers only valid shows
            assert page.evaluate("(report) => referee.judge(report)", report.json()) is True
        # The deal's record (what Review sends) replays through the review: every event one
        # decision of its seat, the first ones (both seats' turns) reviewed at least.
        record = page.evaluate("(ids) => referee.record(ids)", ids)
        assert record["deal"]["wild_rank"] == page.evaluate("() => referee.cutCard")
        assert all(("drawn" in e) == (e["action"] == "draw_stock") for e in record["events"])
        reviewed = post(base_url, "/v1/review", record)
        assert reviewed.status_code == 200, reviewed.text
        review = reviewed.json()
        assert review["total"] == len(record["events"]) == page.evaluate("() => referee.history.length")
        acted = {e["player"] for e in record["events"]}
        seen = {d["seat"] for d in review["decisions"]}
        assert seen == acted if review["complete"] else len(seen) >= 2, (seen, acted)
        request = page.evaluate("() => referee.scoreRequest()")
        if ending == "void":
            assert request is None
            return
        scored = post(base_url, "/v1/score/round", request)
        assert scored.status_code == 200, scored.text
        result = scored.json()
        assert sum(result["points"]) == 0  # a valid show or drops: the winner collects what the others pay
        dropped = page.evaluate("() => referee.dropped")
        for seat, player in enumerate(result["players"]):
            if dropped[seat]:
                assert player["role"] == "dropped" and player["pays"] == DROP[dropped[seat]]
            elif player["role"] == "loser":
                assert 0 <= player["pays"] <= 2 * POINTS_CAP
    finally:
        context.close()


def test_the_record_of_a_wrong_show_replays_through_the_review(browser: Any, base_url: str) -> None:
    """Deal 1 of SHOW_SEED for two: you draw and show the 13 kept as arranged best, which is
    no valid show.  The record's declaration shows every card (those left out of the melds as
    one more group), the review takes it and finds the wrong declaration; before the deal
    is over the referee writes no record."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base_url + indian_link(SHOW_SEED, players=2))
        page.wait_for_selector("body[data-ready=true]")
        drawn = page.evaluate("""(seed) => {
            window.referee = new IndianReferee.Game(seed, 1, 2);
            return referee.apply({action: RummyWords.DRAW_STOCK}).drawn;
        }""", SHOW_SEED)
        hint = post(base_url, "/v1/hints/discard", page.evaluate("() => referee.discardHintRequest()"))
        assert hint.status_code == 200, hint.text
        page.evaluate("([hint, card]) => referee.apply(referee.showThrowing(hint, card))",
                      [hint.json(), drawn])
        kept = page.evaluate("() => referee.declaration.kept")
        record = page.evaluate("() => referee.record(['you', 'bot-1'])")
    finally:
        context.close()
    shown = record["events"][-1]
    assert shown["action"] == "declare" and shown["card"] == drawn
    assert sorted(c for meld in shown["melds"] for c in meld) == sorted(kept)
    assert record["events"][0] == {"player": 0, "action": "draw_stock", "drawn": drawn}
    reviewed = post(base_url, "/v1/review", record)
    assert reviewed.status_code == 200, reviewed.text
    review = reviewed.json()
    assert review["ending"] == "wrong_declaration" and review["result"] == [-WRONG_DECLARATION, 0]
    assert [d["seat"] for d in review["decisions"]] == [0, 0]
    # The wrong show pays 80 exactly (docs/REVIEW.md): the Review panel shows that value and
    # its loss, not "not valued" beside a loss and a reason saying the advisor does not value it.
    shown_decision = review["decisions"][-1]
    assert shown_decision["played"]["action"] == "declare" and shown_decision["label"] == "blunder"
    assert shown_decision["played_value"] == -WRONG_DECLARATION
    assert shown_decision["confidence"] == "exact"
    lost = shown_decision["value"] + WRONG_DECLARATION
    assert shown_decision["points_lost"] == pytest.approx(lost, abs=1e-3)
    assert "does not value" not in shown_decision["reason"]


def test_the_referee_lets_a_copy_of_the_card_taken_be_thrown(browser: Any, base_url: str) -> None:
    """RULES.md section 14: with two decks a player who takes the pile top may
    throw another copy of it at once, never the top itself when it is the only
    one held (seed 4's deal went on to a bot that held two A♦ and took a third
    from the pile; the page's referee refused the advisor's throw of the copy)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base_url + indian_link(SEED))
        page.wait_for_selector("body[data-ready=true]")
        outcome = page.evaluate("""() => {
            const tries = {};
            for (const copies of [1, 2]) {
                const game = new IndianReferee.Game(1, 1, 2);
                const top = game.pileTop;
                const seat = game.toAct;
                game.hands[seat] = game.hands[seat].filter((c) => c !== top);
                for (let k = 1; k < copies; k++) game.hands[seat][k] = top;
                game.apply({action: "take_discard", card: top});
                try {
                    game.apply({action: "discard", card: top});
                    tries[copies] = "thrown";
                } catch (error) {
                    tries[copies] = String(error.message);
                }
            }
            return tries;
        }""")
    finally:
        context.close()
    assert outcome["2"] == "thrown"
    assert "just taken from the pile" in outcome["1"]


def test_the_other_copy_of_a_card_taken_from_the_pile_can_be_thrown_from_the_hand(
        indian: IndianPage) -> None:
    """Seed 18's first deal offers the human the A♥ it already holds: taken,
    one copy may go at once (RULES.md section 14), and the page lets the hand's
    cards be clicked as its referee and the advisor allow (audit 6: both A♥
    stood disabled as "just taken", while the hint listed throwing one)."""
    assert indian.open(indian_link(18, players=3)) == "human"
    assert indian.hand().count("AH") == 1
    indian.testid("moves").locator("[data-move=take_discard][data-card=AH]").click()
    assert indian.turn() == "human" and indian.phase() == "discard"
    aces = indian.testid("your-hand").locator("[data-testid=hand-card][data-card=AH]")
    assert aces.count() == 2
    assert all(aces.nth(i).is_enabled() for i in range(2))
    aces.first.click()
    assert indian.hand().count("AH") == 1  # one copy thrown, the other kept

"""solver.review.openspiel: OpenSpiel gin_rummy histories read as records and written back.

Checked against ``pyspiel`` itself where it is installed (the ``bench``
extra): its card and meld numbering, random games imported (each scored as
OpenSpiel scores it) and written back action for action."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver.cards import card_name
from solver.errors import SolverInputError
from solver.review.openspiel import (
    MELD_BASE,
    MELDS,
    card_from_openspiel,
    card_to_openspiel,
    from_openspiel,
    meld_cards,
    to_openspiel,
)
from solver.review.table import walk

DEAL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 51]
"""Player 0: the spades ace to ten; player 1: the clubs ace to ten (OpenSpiel's
suits: spades, clubs, diamonds, hearts); the upcard the king of hearts."""


def _pyspiel() -> Any:
    return pytest.importorskip("pyspiel", reason="OpenSpiel is in the bench extra")


def test_cards_and_melds_map_both_ways() -> None:
    assert sorted(card_from_openspiel(c) for c in range(52)) == list(range(52))
    assert all(card_to_openspiel(card_from_openspiel(c)) == c for c in range(52))
    assert len(MELDS) == 185
    assert card_name(card_from_openspiel(51)) == "KH"


def _knock_history() -> list[int]:
    """Both pass the upcard, player 0 draws the jack of spades and throws it
    back, knocking with gin; player 1 lays its two club runs."""
    runs = [MELD_BASE + _meld_id(text) for text in
            ("AS 2S 3S 4S 5S", "6S 7S 8S 9S TS", "AC 2C 3C 4C 5C", "6C 7C 8C 9C TC")]
    return [*DEAL, 54, 54, 53, 10, 55, 10, runs[0], runs[1], 54, runs[2], runs[3], 54]


def test_a_gin_knock_imported_and_scored() -> None:
    """Both pass the upcard, player 0 draws the jack of spades and throws it
    back, knocking with gin (two five-card spade runs); player 1 lays its
    two club runs: gin, 25 points and no deadwood to add."""
    history = _knock_history()
    record = from_openspiel(history)
    walked = walk(record)
    assert walked.ending == "gin" and walked.result == (25.0, -25.0)
    assert [s.action for s in record.steps] == ["pass", "pass", "draw_stock", "knock", "lay_off"]
    assert to_openspiel(record) == history


def _meld_id(text: str) -> int:
    wanted = sorted(text.split())
    return next(i for i in range(len(MELDS))
                if sorted(card_name(c) for c in meld_cards(MELD_BASE + i)) == wanted)


@pytest.mark.parametrize(("history", "index"), [
    (DEAL[:20], None),                    # the deal cut short
    ([*DEAL, 53], 21),                    # a draw from the stock before both passed
    ([*DEAL, 54, 54, 53, 51], 24),        # the upcard drawn again (a card already placed)
    ([*DEAL, 54, 54, 53, 30, 300], 25),   # not an action at all
    ([*DEAL[:15], 3, *DEAL[16:]], 15),    # a card dealt twice (was a record's deal loc)
    ([*DEAL[:20], 5], 20),                # the upcard dealt twice
    # the ace of clubs dealt twice to player 1, who throws the 3 of clubs it
    # was not dealt (was refused at that throw, history[28])
    ([*DEAL[:12], 13, *DEAL[13:], 54, 54, 53, 30, 30, 53, 40, 15], 12),
    # the ace of spades dealt twice to player 0, who knocks (was a
    # too_many_copies at ("hand", 1), from the knock's check)
    ([0, 0, *DEAL[2:], 54, 54, 53, 10, 55, 10], 1),
    # the 5 of diamonds thrown, buried under the 2 of hearts, then drawn (was at events[6])
    ([*DEAL, 54, 54, 53, 30, 30, 53, 40, 40, 53, 30], 30),
    ([*DEAL, 54, 54, 53], 23),            # the history stops inside a draw (it was dropped)
])
def test_histories_that_are_not_gin_games_are_refused_where(history: list[int],
                                                           index: int | None) -> None:
    with pytest.raises(SolverInputError) as caught:
        from_openspiel(history)
    assert caught.value.code == "invalid_openspiel_history"
    assert caught.value.loc == (("history",) if index is None else ("history", index))


def test_the_meld_numbering_is_openspiels() -> None:
    pyspiel = _pyspiel()
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    names = {0: "S", 1: "C", 2: "D", 3: "H"}
    for number in range(len(MELDS)):
        text = state.action_to_string(0, MELD_BASE + number).split("Action: ")[1]
        ours = sorted(card_name(c) for c in meld_cards(MELD_BASE + number))
        theirs = sorted(text[i].upper() + text[i + 1].upper() for i in range(0, len(text), 2))
        assert ours == theirs, number
    for card in range(52):
        text = state.action_to_string(0, card).split("Action: ")[1]
        assert card_name(card_from_openspiel(card)) == text[0].upper() + text[1].upper()
        assert names[card // 13] == text[1].upper()


def _random_game(pyspiel: Any, seed: int) -> Any:
    """A pyspiel game by a player that knocks and lays what it can, else
    draws mostly from the stock and throws at random (knocks, gins,
    undercuts, walls and OpenSpiel's guards all occur)."""
    rng = random.Random(seed)
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()
        if 55 in legal:
            action = 55
        elif any(a >= MELD_BASE for a in legal):
            action = rng.choice([a for a in legal if a >= MELD_BASE])
        elif legal == [52, 53]:
            action = 53 if rng.random() < 0.8 else 52
        elif 54 in legal and any(a < 52 for a in legal):
            action = rng.choice([a for a in legal if a < 52])  # lay off all it can
        else:
            action = rng.choice(legal)
        state.apply_action(action)
    return state


@pytest.mark.parametrize(("cut", "index"), [
    (lambda h: [*h, 54], 33),          # an action after the hand's end
    (lambda h: [*h, 54, 7, 200], 33),  # several
    (lambda h: h[:-1], 31),            # the reply's closing 54 missing
    (lambda h: h[:28], 27),            # inside the knocker's melds
])
def test_a_history_that_goes_past_the_hand_or_stops_inside_a_knock_is_refused(
        cut: Any, index: int) -> None:
    """A knock is whole or absent, and nothing follows the hand's end: such
    actions were dropped without a word, the record written back a shorter
    history (audit 5)."""
    with pytest.raises(SolverInputError) as caught:
        from_openspiel(cut(_knock_history()))
    assert (caught.value.code, caught.value.loc) == ("invalid_openspiel_history",
                                                     ("history", index))


@pytest.mark.parametrize("more", [[], [MELD_BASE + _meld_id("6S 7S 8S 9S TS")]])
def test_a_knock_over_the_limit_is_refused_at_the_54_ending_its_melds(more: list[int]) -> None:
    """Player 0 draws the 2 of diamonds and knocks with it thrown (leaving
    two spade runs: gin), but ends its melds (54) after one run, deadwood
    40: pyspiel takes that 54 only within the knock limit and refuses it
    there, history[28]. It was refused at the discard (26), which pyspiel
    takes, or, the other run laid after the 54, at that meld (29) read as
    the defender's layoff ("a card of the defender's ... got 210")."""
    run = MELD_BASE + _meld_id("AS 2S 3S 4S 5S")
    with pytest.raises(SolverInputError) as caught:
        from_openspiel([*DEAL, 54, 54, 53, 27, 55, 27, run, 54, *more, 54, 54])
    assert (caught.value.code, caught.value.loc) == ("invalid_openspiel_history",
                                                     ("history", 28))
    assert "knock limit" in caught.value.message and "40" in caught.value.message


def test_a_draw_of_a_card_under_the_pile_top_is_refused_at_the_draw() -> None:
    """Player 0 throws the ace of spades, player 1 covers it with the 2 of
    clubs, then player 0 "draws" the ace from the stock: the importer only
    looked at the hands and the pile top, so the history was refused at the
    next action (a throw of a card player 0 does not hold), not at the draw."""
    with pytest.raises(SolverInputError) as caught:
        from_openspiel([*DEAL, 54, 54, 53, 10, 0, 53, 11, 14, 53, 0, 12])
    assert (caught.value.code, caught.value.loc) == ("invalid_openspiel_history",
                                                     ("history", 30))
    assert "draws AS" in caught.value.message


def test_a_knock_no_discard_allows_is_refused_at_the_knock() -> None:
    """Player 0 (AS 3S 5S 7S 9S JS KS 3D 5D 7D) draws the 2 of spades and
    knocks (55): with 46 points of deadwood at best it cannot, and OpenSpiel
    refuses the 55. The importer read on and refused the next action ("the
    knocker's discard; got action 52"), or its discard as over the limit."""
    deal = [0, 2, 4, 6, 8, 10, 12, 28, 30, 32, *range(13, 23), 51]
    for after in ([52], [12, MELD_BASE + _meld_id("AS 2S 3S"), 54]):
        with pytest.raises(SolverInputError) as caught:
            from_openspiel([*deal, 54, 54, 53, 1, 55, *after])
        assert (caught.value.code, caught.value.loc) == ("invalid_openspiel_history",
                                                         ("history", 25))
        assert "cannot" in caught.value.message and "46" in caught.value.message


def test_a_record_whose_draws_the_stock_order_gives_is_written_back() -> None:
    """A record giving the stock's order instead of each draw's card (as the
    self-play and arena records do) was an AssertionError in to_openspiel."""
    from solver.review.selfplay import at_random, follow, play

    record = play("gin", [follow, at_random], seed=1, level="novice",
                  rules={"undercut_on_tie": False}, max_decisions=12)
    assert record.dealt.stock is not None and all(s.drawn is None for s in record.steps)
    back = from_openspiel(to_openspiel(record))
    assert [s.event for s in back.steps] == [s.event for s in record.steps]
    assert [d.drawn for d in walk(back).decisions] == [d.drawn for d in walk(record).decisions]


def test_a_record_whose_seat_1_plays_first_is_written_with_it_as_player_0() -> None:
    """OpenSpiel's player 0 plays first and is dealt first; a record dealt
    by seat 0 (seat 1 plays first) was written with seat 0's hand as player
    0's, a history whose first actions were played from the other hand
    (pyspiel refused it, and so did from_openspiel)."""
    from solver.review.selfplay import at_random, play

    record = play("gin", [at_random, at_random], seed=0, level="novice", dealer=0,
                  rules={"undercut_on_tie": False})
    back = from_openspiel(to_openspiel(record))
    assert back.dealt.hands == record.dealt.hands[::-1]
    assert [s.event.action for s in back.steps] == [s.event.action for s in record.steps]
    assert [s.player for s in back.steps] == [1 - s.player for s in record.steps]
    result = walk(record).result
    assert result is not None and walk(back).result == result[::-1]


def test_a_record_knocking_where_openspiel_cannot_is_not_written() -> None:
    """A record played with a knock limit of 20 knocks with 20 points of
    deadwood: written as it was, the history was one pyspiel refuses (and
    from_openspiel too, at the knock's discard)."""
    from solver.review import read_record

    record = read_record({
        "game": "gin", "players": ["ann", "bob"], "rules": {"knock_limit": 20},
        "deal": {"hands": ["AS 2S 3S 4S 5S 6S 7S 8S KD QH", "AH 2H 3H 4H 5H 6H 7H 8H 9H KC"],
                 "upcard": "QC"},
        "events": [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
                   {"player": 0, "action": "draw_stock", "drawn": "JD"},
                   {"player": 0, "action": "knock", "card": "KD",
                    "melds": [["AS", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S"]]},
                   {"player": 1, "action": "lay_off",
                    "melds": [["AH", "2H", "3H", "4H", "5H"], ["6H", "7H", "8H", "9H"]],
                    "deadwood": ["KC"]}]})
    with pytest.raises(SolverInputError) as caught:
        to_openspiel(record)
    assert (caught.value.code, caught.value.loc) == ("cannot_knock", ("events", 3))
    assert "deadwood is 20" in caught.value.message


def test_a_gin_knock_that_does_not_list_its_deadwood_is_written_as_gin() -> None:
    """A knock need not list its deadwood; one that melds every card kept
    (gin) but leaves the field out was written with a layoff phase after it
    (a 54 OpenSpiel does not take after gin), so the defender's melds came
    after the hand's end."""
    from solver.review import read_record

    history = _knock_history()
    data = from_openspiel(history).to_dict()
    del data["events"][3]["deadwood"]
    assert to_openspiel(read_record(data)) == history


@pytest.mark.parametrize("layoffs", [None, [{"target": 0, "cards": ["3S", "4S"]}]])
def test_a_replys_layoffs_are_written_one_by_one_as_openspiel_lays_them(
        layoffs: list[dict[str, Any]] | None) -> None:
    """Bob lays 3S and 4S off onto ann's 5S 6S 7S. Without ``layoffs`` (the
    field is optional: the walk finds them) the history had no layoffs, a
    game OpenSpiel scores 7 points apart; given in ascending order, 3S came
    first, which extends nothing yet."""
    from solver.review import read_record

    reply: dict[str, Any] = {"player": 1, "action": "lay_off", "melds": [],
                             "deadwood": ["2H", "4H", "6H", "9C", "TC", "5D", "7D", "9D"]}
    if layoffs is not None:
        reply["layoffs"] = layoffs
    record = read_record({
        "game": "gin", "players": ["ann", "bob"], "rules": {"undercut_on_tie": False},
        "deal": {"hands": ["5S 6S 7S 8H 8D 8C JD QD KD AC", "3S 4S 2H 4H 6H 9C TC 5D 7D 9D"],
                 "upcard": "KH"},
        "events": [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
                   {"player": 0, "action": "draw_stock", "drawn": "2C"},
                   {"player": 0, "action": "knock", "card": "2C",
                    "melds": [["5S", "6S", "7S"], ["8H", "8D", "8C"], ["JD", "QD", "KD"]]},
                   reply]})
    history = to_openspiel(record)
    assert history[-5:] == [54, 3, 2, 54, 54]  # the knock's end, 4S, 3S, no more, no melds
    assert walk(from_openspiel(history)).result == walk(record).result == (51.0, -51.0)


@pytest.mark.parametrize("laid", [[7, 3], [3, 7]])
def test_a_replys_layoffs_are_written_back_in_the_order_played(laid: list[int]) -> None:
    """Ann (5S 6S 7S 8H 8D 8C JD QD KD AC) draws the 2 of clubs and knocks
    with it; bob lays the 8 and the 4 of spades off onto her 5S 6S 7S, in
    either order (pyspiel takes both, and scores 51 to ann). Written back,
    the layoffs came sorted (4S first) whatever their order in the history
    read: one history in two of OpenSpiel's own random games differed."""
    run, sets, high = (MELD_BASE + _meld_id(text) for text in
                       ("5S 6S 7S", "8H 8D 8C", "JD QD KD"))
    history = [4, 5, 6, 46, 33, 20, 36, 37, 38, 13, 3, 7, 40, 42, 44, 21, 22, 30, 32, 34, 51,
               54, 54, 53, 14, 55, 14, run, sets, high, 54, *laid, 54, 54]
    record = from_openspiel(history)
    assert walk(record).result == (51.0, -51.0)
    assert to_openspiel(record) == history


def test_a_record_that_goes_on_past_openspiels_guards_is_not_written() -> None:
    """Ann and bob each take the king of hearts and throw it back: OpenSpiel
    ends the hand there, unscored (as at the 50th pickup of the upcard). A
    record that goes on was written whole, a history with actions after
    the hand's end; it stops where the guard ended it when that is its
    last event."""
    from solver.review import read_record

    data: dict[str, Any] = {
        "game": "gin", "players": ["ann", "bob"], "rules": {"undercut_on_tie": False},
        "deal": {"hands": ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"],
                 "upcard": "KH"},
        "events": [{"player": 0, "action": "take_discard", "card": "KH"},
                   {"player": 0, "action": "discard", "card": "KH"},
                   {"player": 1, "action": "take_discard", "card": "KH"},
                   {"player": 1, "action": "discard", "card": "KH"},
                   {"player": 0, "action": "draw_stock", "drawn": "JS"}]}
    with pytest.raises(SolverInputError) as caught:
        to_openspiel(read_record(data))
    assert (caught.value.code, caught.value.loc) == ("hand_over", ("events", 4))
    assert "events[3]" in caught.value.message
    data["events"].pop()
    history = to_openspiel(read_record(data))
    assert history[21:] == [52, 51, 52, 51]
    assert walk(from_openspiel(history)).result == (0.0, 0.0)


def test_a_run_is_extended_by_two_cards_an_end_at_most_as_openspiel_does() -> None:
    """OpenSpiel lets the defender extend a knocker's run by two cards an
    end (its layoffs are counted from the run as laid): bob's 4S and 3S go
    onto ann's 5S 6S 7S, his 2S does not. The reader chained on and took a
    third card; the writer wrote a record whose reply lays three, a history
    pyspiel refuses."""
    from solver.review import read_record

    def record(layoffs: list[str], deadwood: list[str]) -> Any:
        return read_record({
            "game": "gin", "players": ["ann", "bob"], "rules": {"undercut_on_tie": False},
            "deal": {"hands": ["5S 6S 7S 8H 8D 8C JD QD KD AC",
                               "2S 3S 4S 2H 4H 6H 9C TC 5D 7D"], "upcard": "KH"},
            "events": [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
                       {"player": 0, "action": "draw_stock", "drawn": "2C"},
                       {"player": 0, "action": "knock", "card": "2C",
                        "melds": [["5S", "6S", "7S"], ["8H", "8D", "8C"], ["JD", "QD", "KD"]]},
                       {"player": 1, "action": "lay_off", "melds": [], "deadwood": deadwood,
                        "layoffs": [{"target": 0, "cards": layoffs}]}]})

    kept = ["2H", "4H", "6H", "9C", "TC", "5D", "7D"]
    history = to_openspiel(record(["3S", "4S"], ["2S", *kept]))
    assert history[-4:] == [3, 2, 54, 54]
    with pytest.raises(SolverInputError) as caught:
        from_openspiel([*history[:-2], 1, 54, 54])
    assert (caught.value.code, caught.value.loc) == ("invalid_openspiel_history",
                                                     ("history", len(history) - 2))
    with pytest.raises(SolverInputError) as caught:
        to_openspiel(record(["2S", "3S", "4S"], kept))
    assert (caught.value.code, caught.value.loc) == ("invalid_meld", ("events", 4))
    assert "2S" in caught.value.message


@pytest.mark.parametrize(("options", "loc"), [
    ({"players": ("ann",)}, ("players",)),
    ({"players": ("ann", "bob", "cat")}, ("players",)),
    ({"players": ("ann", 2)}, ("players", 1)),
    ({"players": "ab"}, ("players",)),
    ({"score": (10, 20, 30)}, ("score",)),
    ({"target": 0}, ("target",)),
    ({"score": (10, 120)}, ("score", 1)),
])
def test_the_importers_own_options_are_checked_as_a_records(options: dict[str, Any],
                                                            loc: tuple[str | int, ...]) -> None:
    """``players``, ``score`` and ``target`` are a record's fields: refused
    where a record's would be (three scores for two seats gave a silently
    wrong match figure)."""
    with pytest.raises(SolverInputError) as caught:
        from_openspiel(_knock_history(), **options)
    assert caught.value.loc == loc


def test_mangled_histories_are_a_record_or_a_refusal_never_a_crash() -> None:
    """Histories cut, spliced, repeated and filled with actions out of range
    or of the wrong type (the importer is a library call: no schema stands
    in front of it) give a checked record or a ``SolverInputError``."""
    rng = random.Random(11)
    base = _knock_history()
    outcomes = {"record": 0, "refused": 0}
    for _ in range(1500):
        history: list[Any] = list(base)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(history) + 1)
            change = rng.randrange(5)
            if change == 0 and at < len(history):
                history[at] = rng.randrange(-5, 260)
            elif change == 1 and at < len(history):
                del history[at]
            elif change == 2:
                history.insert(at, rng.choice([*range(52, 60), rng.randrange(245)]))
            elif change == 3:
                history = history[:at]
            else:
                history.insert(at, rng.choice([1.5, "10", None, True, 10**30, -1]))
        try:
            from_openspiel(history)
            outcomes["record"] += 1
        except SolverInputError:
            outcomes["refused"] += 1
    assert outcomes["refused"] > 1000 and outcomes["record"] > 0


def test_pyspiel_games_round_trip_and_score_as_openspiel() -> None:
    pyspiel = _pyspiel()
    endings = set()
    for seed in range(60):
        state = _random_game(pyspiel, seed)
        history = state.history()
        record = from_openspiel(history, players=("p0", "p1"))
        walked = walk(record)
        endings.add(walked.ending)
        assert walked.result is not None and list(walked.result) == state.returns(), seed
        assert to_openspiel(record) == history, seed
    assert {"knock", "wall"} <= endings

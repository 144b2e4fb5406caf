"""Card encoding: parse/format round trip, aliases and clear errors."""

from __future__ import annotations

import unicodedata

import pytest

from solver.cards import JOKER, InvalidHandError, card_name, parse_card, parse_cards


def test_every_card_round_trips() -> None:
    for card in range(53):
        assert parse_card(card_name(card)) == card


@pytest.mark.parametrize(
    ("token", "name"),
    [("10h", "TH"), ("th", "TH"), ("7♥", "7H"), ("♠A", "AS"), ("qc", "QC"), ("jk", "JK"), ("K♦", "KD")],
)
def test_aliases(token: str, name: str) -> None:
    assert card_name(parse_card(token)) == name


@pytest.mark.parametrize("suit", ["♠", "♥", "♦", "♣"])
@pytest.mark.parametrize("selector", ["\ufe0f", "\ufe0e"])
def test_a_suit_drawn_as_an_emoji_is_the_suit(suit: str, selector: str) -> None:
    """A phone or a browser writes ♥️ (the symbol and a variation selector)."""
    assert parse_card("Q" + suit + selector) == parse_card("Q" + suit)
    assert parse_card(suit + selector + "10") == parse_card(suit + "10")


def test_unicodes_playing_cards_are_the_cards_their_names_say() -> None:
    """Each one-character card of Unicode's block, read by its Unicode name
    ("PLAYING CARD SEVEN OF HEARTS"); the tarot's knights are no card here."""
    ranks = {"ACE": "A", "TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6",
             "SEVEN": "7", "EIGHT": "8", "NINE": "9", "TEN": "T", "JACK": "J",
             "QUEEN": "Q", "KING": "K"}
    suits = {"SPADES": "S", "HEARTS": "H", "DIAMONDS": "D", "CLUBS": "C"}
    read = 0
    for code in range(0x1F0A0, 0x1F100):
        name = unicodedata.name(chr(code), "")
        words = name.removeprefix("PLAYING CARD ").split(" OF ")
        if len(words) == 2 and words[0] in ranks and words[1] in suits:
            assert card_name(parse_card(chr(code))) == ranks[words[0]] + suits[words[1]], name
            read += 1
        elif name.endswith(" JOKER") and name.startswith("PLAYING CARD"):
            assert parse_card(chr(code)) == JOKER, name
            read += 1
        elif name.startswith("PLAYING CARD KNIGHT"):
            with pytest.raises(InvalidHandError):
                parse_card(chr(code))
    assert read == 52 + 3


def test_ids_are_suit_major() -> None:
    assert parse_card("AS") == 0
    assert parse_card("KS") == 12
    assert parse_card("AH") == 13
    assert parse_card("JK") == JOKER


@pytest.mark.parametrize("token", ["XX", "1S", "11H", "A", "", "ZZZ", "AX"])
def test_unknown_token_names_token_and_position(token: str) -> None:
    with pytest.raises(InvalidHandError) as info:
        parse_cards(["AS", token])
    assert repr(token) in str(info.value)
    assert "position 1" in str(info.value)
    assert info.value.index == 1
    assert info.value.code == "invalid_card"


def test_non_string_token() -> None:
    with pytest.raises(InvalidHandError, match="position 0"):
        parse_cards([7])


def test_string_hand_is_split() -> None:
    assert parse_cards("AS, 2S 3S") == [0, 1, 2]

"""Card encoding: parse/format round trip, aliases and clear errors."""

from __future__ import annotations

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

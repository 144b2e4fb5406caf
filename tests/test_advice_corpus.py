"""The recorded advice corpus (``tests/advice_corpus.py``): today's advisor
answers every recorded position as it was recorded, byte for byte.

The default run checks every ``SAMPLE``-th position of each game at both
levels; ``--run-slow`` checks them all.  A difference prints the recorded
and today's answer; ``python -m tests.advice_corpus check`` runs the whole
check on every core.
"""

from __future__ import annotations

import pytest

from tests.advice_corpus import GAMES, answer, corpus_cases

SAMPLE = 40
"""Every this many positions in the default run (about 15 positions a game)."""


def _cases(every: int) -> list[tuple[dict[str, object], str, str]]:
    return list(corpus_cases(GAMES, every))


def _id(case: tuple[dict[str, object], str, str]) -> str:
    position, level, _ = case
    return f"{position['game']}-{position['id']}-{level}"


@pytest.mark.parametrize("case", _cases(SAMPLE), ids=_id)
def test_a_sample_of_the_recorded_answers_is_given_again(
        case: tuple[dict[str, object], str, str]) -> None:
    position, level, recorded = case
    assert answer(position, level) == recorded


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_recorded_answer_is_given_again(game: str) -> None:
    differences = [_id(case) for case in corpus_cases((game,)) if answer(case[0], case[1]) != case[2]]
    assert not differences, f"{len(differences)} answers differ, first: {differences[:5]}"


def test_the_corpus_covers_every_game_at_two_to_four_players() -> None:
    from tests.advice_corpus import positions_path, read_lines

    for game in GAMES:
        positions = read_lines(positions_path(game))
        assert len(positions) >= 300, game
        if game != "gin":
            assert {p.get("players") for p in positions} == {2, 3, 4}, game


def test_no_recorded_reason_counts_one_thing_in_the_plural() -> None:
    """Every reason the advisors gave across the corpus counts in the right
    number ("1 card away", never "1 cards away", which the Indian take's
    reason said), as a player reads it."""
    import json
    import re

    one_of_many = re.compile(r"(?<![\d.])1 (card|deal|turn|point|meld|player)s\b")
    wrong = [reason for _, _, recorded in corpus_cases(GAMES, 1)
             for move in json.loads(recorded)["moves"] for reason in move["reasons"]
             if one_of_many.search(reason)]
    assert not wrong, wrong[:5]

"""Each game's words, written once: the actions, phases and event fields of a public history.

No logic lives here, only names.  The solver's game states (``solver.play``),
the HTTP schemas, the arena's protocol, referees and players
(``benchmarks/arena``) and the browser pages (``api/pages/static/play/words.js``,
generated from this module by ``python -m api.pages.export_words``, kept in
sync by a test) all read them from here, so an action is spelled in one place.
The TypeScript client's ``GAME_WORDS`` are generated from it too, by a script
that runs this file on its own: it imports the standard library only.

A history **event** is an object of ``EVENT_FIELDS``: who acted (``player``,
a seat), what it did (``action``) and, as the action needs, the ``card`` it
showed, the ``melds`` it laid down, the ``deadwood`` it showed and the
table meld a layoff went onto (``target``).  An **advice move** names its
action in the same words (plus the moves that only the advisor answers:
the gin defender's ``lay_off`` reply, Rummy 500's ``go_out``).

>>> GIN.actions
('pass', 'take_discard', 'draw_stock', 'discard', 'knock')
>>> INDIAN.phases
('draw', 'discard', 'over')
>>> sorted(set(LAY_DOWN.moves) - set(LAY_DOWN.actions))
['go_out']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

# -- actions ---------------------------------------------------------------------------
TAKE_DISCARD: Final = "take_discard"
"""Take the discard pile's top (Rummy 500 and Rommy: down to ``card``)."""
DRAW_STOCK: Final = "draw_stock"
"""Draw the stock's top card (not shown to the others)."""
PASS: Final = "pass"
"""Gin: decline the first upcard, or end the hand at the wall; the lay-down
games: with the stock empty, end the round."""
DISCARD: Final = "discard"
"""Throw ``card`` onto the pile."""
KNOCK: Final = "knock"
"""Gin: throw ``card`` and show ``melds`` (and ``deadwood`` where shown)."""
LAY_OFF: Final = "lay_off"
"""Lay cards off onto a table meld (Rummy 500, Rommy, basic; the gin defender's reply)."""
MELD: Final = "meld"
"""Lay ``melds`` down on the table (the lay-down games)."""
DROP: Final = "drop"
"""Indian rummy: give up the deal at the start of a turn."""
DECLARE: Final = "declare"
"""Indian rummy: throw ``card`` and show ``melds``: the deal ends."""
GO_OUT: Final = "go_out"
"""An advice move of the lay-down games: lay every card left (no throw)."""

# -- phases ----------------------------------------------------------------------------
FIRST_UPCARD: Final = "first_upcard"
"""Gin: the first upcard is offered (take it or pass)."""
DRAW: Final = "draw"
"""The start of a turn: take from the pile, draw (Indian: or drop)."""
AFTER_DRAW: Final = "discard"
"""Gin and Indian rummy, after the draw: throw a card (or knock, or declare)."""
PLAY: Final = "play"
"""The lay-down games, after the draw: lay down, lay off, throw."""
WALL: Final = "wall"
"""Gin: the stock is down to the wall: knock with the pile top, or pass."""
LAYOFF: Final = "layoff"
"""Gin: the opponent knocked; the defender's reply (its melds and layoffs)."""
OVER: Final = "over"
"""The hand, deal or round is over."""

# -- event fields ----------------------------------------------------------------------
PLAYER: Final = "player"
ACTION: Final = "action"
CARD: Final = "card"
MELDS: Final = "melds"
DEADWOOD: Final = "deadwood"
TARGET: Final = "target"
EVENT_FIELDS: Final = (PLAYER, ACTION, CARD, MELDS, DEADWOOD, TARGET)

# -- Indian drops ----------------------------------------------------------------------
FIRST_DROP: Final = "first"
"""A drop before the player's first draw (it pays ``drop_first``)."""
MIDDLE_DROP: Final = "middle"
"""A drop at the start of a later turn (it pays ``drop_middle``)."""

GinPhase = Literal["first_upcard", "draw", "discard", "wall", "layoff", "over"]
IndianPhase = Literal["draw", "discard", "over"]
LayDownPhase = Literal["draw", "play", "over"]
Drop = Literal["first", "middle"]


@dataclass(frozen=True, slots=True)
class GameWords:
    """The words of one game family: the actions its history may hold, the
    moves its advice may answer, and its phases in the order a turn meets
    them."""

    family: str
    games: tuple[str, ...]
    actions: tuple[str, ...]
    moves: tuple[str, ...]
    phases: tuple[str, ...]


GIN = GameWords("gin", ("gin",), (PASS, TAKE_DISCARD, DRAW_STOCK, DISCARD, KNOCK),
                (TAKE_DISCARD, PASS, DRAW_STOCK, DISCARD, KNOCK, LAY_OFF),
                (FIRST_UPCARD, DRAW, AFTER_DRAW, WALL, LAYOFF, OVER))
INDIAN = GameWords("indian", ("indian13", "indian21"),
                   (TAKE_DISCARD, DRAW_STOCK, DISCARD, DROP, DECLARE),
                   (TAKE_DISCARD, DRAW_STOCK, DROP, DISCARD, DECLARE),
                   (DRAW, AFTER_DRAW, OVER))
LAY_DOWN = GameWords("laydown", ("rummy500", "rommy", "basic"),
                     (DRAW_STOCK, TAKE_DISCARD, MELD, LAY_OFF, DISCARD, PASS),
                     (DRAW_STOCK, TAKE_DISCARD, PASS, DISCARD, GO_OUT),
                     (DRAW, PLAY, OVER))
FAMILIES: Final = (GIN, INDIAN, LAY_DOWN)

# -- the gin table's steps (the arena plays a knock and a reply as OpenSpiel does) --------
KNOCK_DISCARD: Final = "knock_discard"
"""The knocker throws a card that leaves it within the knock limit."""
KNOCK_MELD: Final = "knock_meld"
"""The knocker lays its melds one at a time, then finishes."""
DEFENDER_MELD: Final = "defender_meld"
"""The defender lays its own melds, then finishes."""
LAYOFF_STEP: Final = "layoff"
"""One card laid off onto the knocker's melds (a step of the reply)."""
FINISH: Final = "finish"
"""The end of a run of steps (the knocker's melds, the layoffs, the defender's melds)."""
GIN_TABLE_PHASES: Final = (FIRST_UPCARD, DRAW, AFTER_DRAW, KNOCK_DISCARD, KNOCK_MELD, LAYOFF,
                           DEFENDER_MELD, WALL)
GIN_TABLE_ACTIONS: Final = (TAKE_DISCARD, DRAW_STOCK, PASS, DISCARD, KNOCK, MELD, LAYOFF_STEP,
                            FINISH)

__all__ = [
    "ACTION", "AFTER_DRAW", "CARD", "DEADWOOD", "DECLARE", "DEFENDER_MELD", "DISCARD", "DRAW",
    "DRAW_STOCK", "DROP", "EVENT_FIELDS", "FAMILIES", "FINISH", "FIRST_DROP", "FIRST_UPCARD",
    "GIN", "GIN_TABLE_ACTIONS", "GIN_TABLE_PHASES", "GO_OUT", "INDIAN", "KNOCK", "KNOCK_DISCARD",
    "KNOCK_MELD", "LAYOFF", "LAYOFF_STEP", "LAY_DOWN", "LAY_OFF", "MELD", "MELDS", "MIDDLE_DROP",
    "OVER", "PASS", "PLAY", "PLAYER", "TAKE_DISCARD", "TARGET", "WALL", "Drop", "GameWords",
    "GinPhase", "IndianPhase", "LayDownPhase",
]

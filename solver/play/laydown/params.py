"""The lay-down games' advisor's tuned numbers (Rummy 500, Rommy, basic rummy):
one frozen parameters object (``solver.play.params``).

>>> from dataclasses import replace
>>> replace(LAY_DOWN_PARAMS, link_weight=5).link_weight, LAY_DOWN_PARAMS.link_weight
(5, 7)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.play.params import tuned


@dataclass(frozen=True, slots=True)
class LayDownParams:
    """Every number the lay-down advisor was tuned with (see the module docstring)."""

    # -- the moves -------------------------------------------------------------------------
    penalised_depths: int = tuned(
        3, "Rommy: the deeper takes listed whose deepest card cannot be used (each costs the "
           "pile penalty and brings every card above it into the hand)", None)
    closing_left: int = tuned(
        2, "Rommy: closings are looked for when the best play leaves at most this many cards "
           "(laying all but the throw may need another arrangement)", None)

    # -- the search ------------------------------------------------------------------------
    batch: int = tuned(3, "deals every move gets in the search's first round, whatever the "
                          "budget", None)
    drop_z: float = tuned(
        2.5, "a move stops being played when it is this many paired standard errors behind "
             "the best", None)
    least: int = tuned(6, "deals every move gets before any is dropped", None)
    settle: int = tuned(32, "with one move left after this many deals the search stops", None)
    floor: float = tuned(
        0.5, "the least standard error (points) the search assumes, so a few equal deals do "
             "not end a move", None)

    # -- the playouts ----------------------------------------------------------------------
    max_turns: int = tuned(90, "turns a playout plays at most (then scored as it stands)", None)
    link_weight: int = tuned(
        7, "the fast player's worth of a kept card per card it could meld with (same rank, "
           "or same suit within two ranks): it throws the card of most points less this",
        "laydown-link-weight.md")
    deep_look: int = tuned(6, "pile depths the fast player considers below the top", None)
    feed_care: int = tuned(
        0, "points the fast player's throw pays for a card that makes a meld with the next "
           "player's hand in the deal played (a careful player reads what the next player "
           "collects): 0 feeds freely", "laydown-feed-care.md")
    plain_draw_z: float = tuned(
        0.0, "a take of the pile's top card that no meld or layoff can hold this turn is "
             "recommended over the stock draw only when the deals favour it by this many "
             "paired standard errors (a short search's noise picks such takes: the standard "
             "level throws a third of them back later); 0: the better figure decides",
        "laydown-plain-draw.md")
    plain_lay_z: float = tuned(
        0.0, "a move that holds every card (lays nothing down, its throw aside) is "
             "recommended over the best move that lays cards down only when the deals favour "
             "it by this many paired standard errors (held melds count against the hand when "
             "another player goes out); 0: the better figure decides",
        "laydown-plain-lay.md")
    plain_throw_z: float = tuned(
        0.0, "the throw the fast player would make (the card of most points less "
             "link_weight per link), with the best move's cards laid down, is recommended "
             "unless the best move's throw leads it by this many paired standard errors (a "
             "short search's noise among the throws); 0: the better figure decides",
        "laydown-plain-throw.md")
    plain_dump_z: float = tuned(
        0.0, "when an opponent holds at most dump_left cards (one may go out soon, and every "
             "point kept may be paid), the throw of the most points, with the best move's "
             "cards laid down, is recommended unless the best move's throw leads it by this "
             "many paired standard errors (a short search's noise among the throws keeps "
             "high cards a careful player sheds); 0: the better figure decides",
        "laydown-plain-dump.md")
    dump_left: int = tuned(
        4, "plain_dump_z applies while some opponent holds at most this many cards",
        "laydown-plain-dump.md")
    hold_left: int = tuned(
        0, "a rummy paid double (basic rummy): the fast player that has laid nothing yet "
           "in the round holds its melds while laying would leave from 2 to this many cards "
           "(one good draw from going out in one turn); below 2: it always lays",
        "laydown-hold-for-rummy.md")
    collector_share: float = tuned(
        0.0, "the share of the worlds in which an opponent that has laid no card after "
             "collector_turns turns of its own is dealt a collector's hand (the most melded "
             "of collector_draws random hands): a player who holds its melds for a rummy, "
             "not one with nothing to lay; 0: every opponent is dealt at random (Rummy "
             "500, Rommy; basic rummy: BASIC_PARAMS)",
        "laydown-collector-worlds.md")
    collector_turns: int = tuned(
        3, "turns of its own an opponent has played, laying nothing, before it may be "
           "dealt a collector's hand", "laydown-collector-worlds.md")
    collector_draws: int = tuned(
        4, "random hands a collector's hand is the most melded of",
        "laydown-collector-worlds.md")
    threw_a_fitting_card: float = tuned(
        1.0, "likelihood factor of a world in which a card an opponent threw lately would "
             "have made a meld with the hand it is dealt (a player keeps what it collects); "
             "1: the worlds are dealt at random", "laydown-read-passes.md")
    passed_a_fitting_card: float = tuned(
        1.0, "likelihood factor of a world in which a pile top an opponent let go by lately "
             "would have made a meld with the hand it is dealt; 1: not weighed",
        "laydown-read-passes.md")
    recent: int = tuned(3, "the last throws and passes of each opponent that weigh a world",
                        "laydown-read-passes.md")
    oversample: int = tuned(2, "worlds dealt per world kept when they are weighed "
                               "(importance resampling)", "laydown-read-passes.md")
    search_nodes: int = tuned(
        6_000, "candidates one hand's meld search looks at, at most (random hands of 13 "
               "cards need about 50, of 20 cards 500, of 26 cards under 5,300 in 99 of 100)",
        None)


LAY_DOWN_PARAMS = LayDownParams()
"""The parameters ``advise`` plays Rummy 500 and Rommy with."""

BASIC_PARAMS = replace(LAY_DOWN_PARAMS, collector_share=0.5, plain_draw_z=1.0)
"""The parameters ``advise`` plays basic rummy with: half the worlds deal an
opponent that has laid nothing for three turns a collector's hand, where a
rummy is paid double (docs/experiments/laydown-collector-worlds.md), and a
pickup no meld or layoff holds is advised over the stock only when it leads
by a paired standard error (docs/experiments/laydown-plain-draw.md)."""

PARAMS_BY_GAME = {"rummy500": LAY_DOWN_PARAMS, "rommy": LAY_DOWN_PARAMS, "basic": BASIC_PARAMS}
"""Each lay-down game's parameters."""

__all__ = ["BASIC_PARAMS", "LAY_DOWN_PARAMS", "PARAMS_BY_GAME", "LayDownParams"]

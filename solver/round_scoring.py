"""Points of a finished round for every player (RULES.md section 6).

The method is the variant's ``round_scoring`` knob, never its name:

* ``collect`` (``basic``) -- the player who went out collects the points of every other
  player's whole remaining hand (matched or not, as in 004); going rummy (all
  cards down in one turn, nothing melded before: ``rummy``) doubles when the
  knob ``rummy_doubles`` is on.  The others score 0.
* ``net`` (``rummy500`` / ``rommy``) -- each player scores melded points minus
  hand points; under ``pile_pickup="meld_or_penalty"`` (``rommy``) also
  ``pile_penalty`` for each time the player took from the pile without
  melding at once (``pile_penalties``).
* ``hand_penalty`` (``contract``, ``kalooki``) -- each player pays the points
  of the cards still in its hand (scored negative); the player who went out
  pays nothing.
* ``indian`` (``indian13``) -- the declarer's show is checked; if valid every loser pays
  the winner its cascade count (capped at ``points_cap``), or ``drop_first``
  / ``drop_middle`` when it dropped; a loser that had no turn yet pays half
  (rounded down); a hand-rummy winner (complete at the deal: ``rummy``)
  doubles what the counted losers that had a turn pay (003: "redan spelade
  motståndare betalar dubbelt"; the others still pay half).  A show that is
  not valid costs the
  declarer ``wrong_declaration`` and nobody else pays.
* ``indian`` with ``value_cards`` (``indian21``) -- as ``indian13`` (no cap by
  default), plus value cards: each
  copy of the cut card and of its upper and lower neighbours (same suit) held
  is worth ``value_card_points``, and each complete triple of them (a
  marriage) ``marriage_points`` instead of its three cards.  Value points are
  settled between all players: each receives its value from every other
  player (``n * V_i - sum V``).

Gin (``knock``) has its own scoring (``solver.gin.gin_score``).

A player's ``hand`` is the cards it still holds; ``melded`` the groups it put
on the table (rummy500/rommy: a group that is not a meld by itself, such as
cards laid off onto another meld, scores each card's melded points; Indian: the
groups shown).  An Indian player without ``melded`` is arranged optimally.
``laid_off`` (not in Indian rummy) is the cards a player laid off, each with
the table meld they went onto as it was before (``onto``): under ``net`` they
score what they add to that meld, so an ace laid below 2-3-4 scores as the
low ace it became.

>>> score_round([PlayerHand(laid_off=[{"cards": ["AH"], "onto": ["2H", "3H", "4H"]}],
...                         went_out=True),
...              PlayerHand(hand="KS", melded=["2H 3H 4H"])], "rummy500").points
(1, -1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from solver.cards import InvalidHandError, make_card, names, parse_cards, rank_of, suit_of
from solver.classify import is_meld, readings, richest_of, richest_reading
from solver.deadline import Deadline, play_deadline
from solver.errors import is_list, plain_int, shown
from solver.layoffs import TableMeld, keeps_places, read_table_meld
from solver.results import Meld, Solution
from solver.rules import (
    MAX_HAND_CARDS,
    Deal,
    Rules,
    base_points,
    check_copies,
    make_deal,
    make_rules,
    melded_points,
    refusal_by_knob,
)
from solver.scoring import meets_declaration, score_arrangement, unmet_requirements
from solver.session import Session
from solver.validate import chosen_readings

Drop = Literal["first", "middle"]
Role = Literal["winner", "loser", "dropped", "wrong_declaration", "player"]

MAX_PLAYERS = 12
MAX_MELDED_GROUPS = 30


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's end of round (card tokens as given on the wire)."""

    hand: str | Sequence[object] = ()
    melded: Sequence[str | Sequence[object]] | None = None
    went_out: bool = False
    dropped: Drop | None = None
    had_turn: bool = True
    rummy: bool = False
    pile_penalties: int = 0
    laid_off: Sequence[Mapping[str, object]] | None = None
    """Cards laid off onto a table meld: ``{"cards": [...], "onto": [the meld
    before]}`` each (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """What one player scores this round (``points``: + gains, - pays)."""

    index: int
    role: Role
    points: int
    hand_points: int
    melded_points: int | None = None
    count: int | None = None
    pays: int | None = None
    value_points: int | None = None
    melds: tuple[Meld, ...] = ()
    explanation: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        return {
            "index": self.index,
            "role": self.role,
            "points": self.points,
            "hand_points": self.hand_points,
            "melded_points": self.melded_points,
            "count": self.count,
            "pays": self.pays,
            "value_points": self.value_points,
            "melds": [m.to_dict() for m in self.melds],
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class RoundScore:
    """Points of every player, in input order, and why."""

    variant: str
    winner: int | None
    players: tuple[PlayerScore, ...]
    explanation: str
    points: tuple[int, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        return {
            "variant": self.variant,
            "winner": self.winner,
            "points": list(self.points),
            "players": [p.to_dict() for p in self.players],
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class _Parsed:
    hand: list[int]
    melded: list[list[int]] | None
    info: PlayerHand
    laid_off: list[tuple[list[int], list[int], int]] = field(default_factory=list)
    """``(cards, onto, points)`` per layoff: the cards, the table meld before
    it and what they add to it (``_laid_off_reading``)."""

    @property
    def cards(self) -> list[int]:
        return [*self.hand, *(c for g in self.melded or [] for c in g)]




def _listed(cards: Iterable[int]) -> str:
    return names(cards) or "nothing"


def player_hand(player: PlayerHand | Mapping[str, Any], index: int) -> PlayerHand:
    """``player`` as a ``PlayerHand`` (a mapping holds its fields by name)."""
    if isinstance(player, PlayerHand):
        return player
    if not isinstance(player, Mapping):
        raise InvalidHandError(f"players[{index}] must be an object with the fields of a player",
                               code="invalid_player", field=f"players[{index}]")
    fields = PlayerHand.__dataclass_fields__
    for key in player:
        if key not in fields:
            raise InvalidHandError(f"players[{index}]: unknown field {shown(key)}; fields are "
                                   f"{', '.join(fields)}", code="invalid_player",
                                   field=f"players[{index}].{key}")
    return PlayerHand(**player)


def _parse_players(players: Sequence[PlayerHand | Mapping[str, Any]],
                   deal: Deal) -> list[_Parsed]:
    if not is_list(players):
        raise InvalidHandError(f"players must be a list of 2 to {MAX_PLAYERS} players, not "
                               f"{type(players).__name__}", code="wrong_player_count",
                               field="players")
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise InvalidHandError(f"a round has 2 to {MAX_PLAYERS} players; got {len(players)}",
                               code="wrong_player_count", field="players")
    parsed: list[_Parsed] = []
    groups: list[tuple[str, Sequence[int]]] = []
    for i, given in enumerate(players):
        player = player_hand(given, i)
        where = f"players[{i}]"
        hand = parse_cards(player.hand, f"{where}.hand", MAX_HAND_CARDS)
        groups.append((f"{where}.hand", hand))
        melded: list[list[int]] | None = None
        if player.melded is not None:
            if not is_list(player.melded) or len(player.melded) > MAX_MELDED_GROUPS:
                raise InvalidHandError(
                    f"{where}.melded must be a list of at most {MAX_MELDED_GROUPS} groups of cards",
                    code="invalid_melded", field=f"{where}.melded",
                )
            melded = []
            for j, group in enumerate(player.melded):
                cards = parse_cards(group, f"{where}.melded[{j}]")
                if not cards:
                    raise InvalidHandError(f"{where}.melded[{j}] is empty",
                                           code="invalid_melded", field=f"{where}.melded[{j}]")
                melded.append(cards)
                groups.append((f"{where}.melded[{j}]", cards))
        laid_off = _parse_laid_off(player.laid_off, where, deal)
        groups.extend((f"{where}.laid_off[{k}].cards", cards)
                      for k, (cards, _, _) in enumerate(laid_off))
        if player.dropped not in (None, "first", "middle"):
            raise InvalidHandError(f"{where}.dropped must be 'first' or 'middle'",
                                   code="invalid_drop", field=f"{where}.dropped")
        pile_penalties = plain_int(player.pile_penalties)
        if pile_penalties is None or not 0 <= pile_penalties <= 100:
            raise InvalidHandError(f"{where}.pile_penalties must be an integer from 0 to 100",
                                   code="invalid_pile_penalties", field=f"{where}.pile_penalties")
        if type(player.pile_penalties) is not int:
            player = replace(player, pile_penalties=pile_penalties)
        parsed.append(_Parsed(hand, melded, player, laid_off))
    check_copies(groups, deal.rules)
    return parsed


def _parse_laid_off(value: object, where: str,
                    deal: Deal) -> list[tuple[list[int], list[int], int]]:
    """A player's ``laid_off``: each item's cards, the meld they went onto and
    the points they add to it (the meld's after less its before), both melds
    checked."""
    if value is None:
        return []
    if not is_list(value) or len(value) > MAX_MELDED_GROUPS:
        raise InvalidHandError(f"{where}.laid_off must be a list of at most {MAX_MELDED_GROUPS} "
                               "layoffs", code="invalid_melded", field=f"{where}.laid_off")
    out = []
    for k, item in enumerate(value):
        at = f"{where}.laid_off[{k}]"
        if not isinstance(item, Mapping) or set(item) != {"cards", "onto"}:
            raise InvalidHandError(f"{at} must be an object with cards (the cards laid off) "
                                   "and onto (the table meld before)", code="invalid_melded",
                                   field=at)
        cards = parse_cards(item["cards"], f"{at}.cards")
        onto = parse_cards(item["onto"], f"{at}.onto")
        if not cards:
            raise InvalidHandError(f"{at}.cards is empty", code="invalid_melded",
                                   field=f"{at}.cards")
        if not is_meld(onto, deal):
            raise InvalidHandError(f"{at}.onto: {_listed(onto)} is no meld (give the table meld "
                                   "as it was before the layoff)", code="invalid_melded",
                                   field=f"{at}.onto")
        check_copies([(at, [*onto, *cards])], deal.rules)
        reading = _laid_off_reading(cards, onto, deal)
        if reading is None:
            raise InvalidHandError(f"{at}.cards: {_listed(cards)} laid onto {_listed(onto)} make "
                                   "no meld (a wild card of the meld keeps the card its place "
                                   "gave it)", code="invalid_melded", field=f"{at}.cards")
        before, after = reading
        out.append((cards, onto, after.points - before.points))
    return out


def _laid_off_reading(cards: list[int], onto: list[int], deal: Deal) -> tuple[Meld, Meld] | None:
    """The table meld ``onto`` read in meld order (a run's wild card stands
    for the card its place gives it) and, of the readings of it with ``cards``
    laid off that keep its cards in their places, the one worth most (a card
    that fits either end is read at the end worth more: the request does not
    say which): ``(before, after)``,
    or None when no such reading exists.  As the advisor's history reads a
    ``lay_off``: ``JK 5H 6H`` is 4-5-6 and 7H laid onto it leaves the joker a 4."""
    before = read_table_meld(onto, 0, deal)
    kept = [meld for meld in readings([*onto, *cards], deal)
            if meld.kind == before.kind
            and keeps_places(before, TableMeld.from_meld(0, meld))]
    return (before.meld, richest_of(kept)) if kept else None


def _flag_error(index: int, flag: str, message: str) -> InvalidHandError:
    return InvalidHandError(f"players[{index}].{flag}: {message}", code="invalid_flag",
                            field=f"players[{index}].{flag}")


def _check_flags(players: list[_Parsed], rules: Rules) -> None:
    method = rules.round_scoring
    for i, p in enumerate(players):
        info = p.info
        for flag in ("went_out", "had_turn", "rummy"):
            if not isinstance(getattr(info, flag), bool):  # "no" is not False
                raise _flag_error(i, flag, f"must be true or false, not "
                                           f"{type(getattr(info, flag)).__name__}")
        if method != "indian":
            if info.dropped is not None:
                raise _flag_error(i, "dropped", "dropping exists only under round_scoring "
                                                "'indian' (indian13, indian21)")
            if not info.had_turn:
                raise _flag_error(i, "had_turn", "the half payment exists only under "
                                                 "round_scoring 'indian' (indian13, indian21)")
        if method == "indian" and p.laid_off:
            raise _flag_error(i, "laid_off", "Indian rummy has no laying off")
        if rules.pile_pickup != "meld_or_penalty" and info.pile_penalties:
            raise _flag_error(i, "pile_penalties", "the pile penalty exists only under "
                                                   "pile_pickup 'meld_or_penalty' (rommy)")
        if method not in ("collect", "indian") and info.rummy:
            raise _flag_error(i, "rummy", f"round_scoring {shown(method)} ({rules.name}) has no "
                                          "rummy bonus")
        if info.rummy and not info.went_out:
            raise _flag_error(i, "rummy", "only the player who went out can go rummy")
        if info.dropped is not None and info.went_out:
            raise _flag_error(i, "dropped", "a player who dropped cannot also go out")
    out = [i for i, p in enumerate(players) if p.info.went_out]
    if len(out) > 1:
        raise InvalidHandError(
            f"players {out} all went out; at most one player goes out in a round",
            code="several_winners", field=f"players[{out[1]}].went_out",
        )


def score_round(
    players: Sequence[PlayerHand | Mapping[str, Any]],
    variant: str,
    *,
    wild_rank: str | None = None,
    rules: Mapping[str, Any] | None = None,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> RoundScore:
    """Score a finished round of ``variant`` (see the module docstring).

    Raises ``InvalidHandError`` naming the player field at fault
    (``players[1].hand`` ...) or ``InvalidRulesError``.
    """
    budget = play_deadline(time_limit_ms, deadline)
    deal = make_deal(make_rules(variant, rules), wild_rank)
    method = deal.rules.round_scoring
    if method == "knock":
        raise refusal_by_knob(
            deal.rules, "round_scoring",
            f"variant {deal.rules.name!r} is scored knock by knock (round_scoring 'knock'): use "
            "gin_score / POST /v1/gin/score",
            "a knock is scored knock by knock: use gin_score / POST /v1/gin/score (collect, "
            "net, indian and hand_penalty score a round)",
            variant_code="unknown_variant")
    parsed = _parse_players(players, deal)
    _check_flags(parsed, deal.rules)
    if method == "collect":
        return _score_basic(parsed, deal, budget)
    if method == "net":
        _check_empty_hand_went_out(parsed, deal, "list its last melds under melded")
        return _score_net(parsed, deal)
    if method == "hand_penalty":
        return _score_penalty(parsed, deal)
    return _score_indian(parsed, deal, deal.rules.name, budget)


def _hand_points(cards: Iterable[int], deal: Deal) -> int:
    return sum(base_points(c, deal) for c in cards)


# ---------------------------------------------------------------------------
# basic


def _check_went_out(players: list[_Parsed], deal: Deal, budget: Deadline) -> int:
    """The player who went out; its cards still held must all meld (with at
    most one discard)."""
    winner = next((i for i, p in enumerate(players) if p.info.went_out), None)
    if winner is None:
        raise InvalidHandError(f"{deal.rules.name}: say which player went out (went_out: true)",
                               code="no_winner", field="players")
    going = players[winner]
    if going.hand:
        hands = Session(deal, budget)
        # The hand goes out when its best arrangement melds every card, or when
        # another does (``go_out``: under max_net the best may keep cards back).
        ways = [hands.solution(going.hand, discard) for discard in (False, True)]
        if not any(s.go_out is not None or (s.declarable and not s.deadwood) for s in ways):
            for way in ways:
                _check_proved(way, winner, "whether its hand melds")
            if budget.expired():  # the search for another arrangement was cut short
                raise _unproved(winner, "whether its hand melds")
            raise InvalidHandError(
                f"players[{winner}] went out but its hand {_listed(going.hand)} cannot all be "
                "melded (with at most one discard); give the cards it still holds as "
                "another player's, or leave its hand empty",
                code="cannot_go_out", field=f"players[{winner}].hand",
            )
    return winner


def _check_proved(solution: Solution, index: int, what: str) -> None:
    """A solution that the deadline cut short proves nothing the answer may
    rest on: its count is only an upper bound, and a show or a going out it
    missed may exist.  Refuse rather than score on it."""
    if not solution.optimal:
        raise _unproved(index, what)


def _unproved(index: int, what: str) -> InvalidHandError:
    return InvalidHandError(
        f"players[{index}]: the time limit ran out before {what} was settled; give a "
        "larger time_limit_ms (or the player's melded groups)",
        code="time_limit_too_small", field="time_limit_ms",
    )


def _score_basic(players: list[_Parsed], deal: Deal, budget: Deadline) -> RoundScore:
    winner = _check_went_out(players, deal, budget)
    going = players[winner]
    total = 0
    scores: list[PlayerScore | None] = [None] * len(players)
    for i, p in enumerate(players):
        if i == winner:
            continue
        points = _hand_points(p.hand, deal)
        total += points
        scores[i] = PlayerScore(i, "loser", 0, points, pays=points,
                                explanation=f"holds {_listed(p.hand)}: {points} to the winner")
    doubled = going.info.rummy and deal.rules.rummy_doubles
    gain = total * 2 if doubled else total
    why = f"collects {total} from the other hands" + (", doubled for going rummy" if doubled else "")
    scores[winner] = PlayerScore(winner, "winner", gain, _hand_points(going.hand, deal),
                                 explanation=why)
    final = tuple(s for s in scores if s is not None)
    return RoundScore(deal.rules.name, winner, final,
                      f"player {winner} went out and {why}", tuple(s.points for s in final))


def _check_empty_hand_went_out(players: list[_Parsed], deal: Deal, hint: str) -> None:
    """A player who went out holds no cards (those it held count against it)."""
    for index, player in enumerate(players):
        if player.info.went_out and player.hand:
            raise InvalidHandError(
                f"players[{index}] went out, so its hand is empty under {deal.rules.name!r} "
                f"(cards left in hand count against a player; {hint}); got "
                f"{_listed(player.hand)}",
                code="cannot_go_out", field=f"players[{index}].hand",
            )


def _score_penalty(players: list[_Parsed], deal: Deal) -> RoundScore:
    winner = next((i for i, p in enumerate(players) if p.info.went_out), None)
    if winner is None:
        raise InvalidHandError(f"{deal.rules.name}: say which player went out (went_out: true)",
                               code="no_winner", field="players")
    _check_empty_hand_went_out(players, deal, "its melds are already down")
    scores = []
    for i, p in enumerate(players):
        if i == winner:
            scores.append(PlayerScore(i, "winner", 0, 0, pays=0,
                                      explanation="went out: pays nothing"))
            continue
        points = _hand_points(p.hand, deal)
        scores.append(PlayerScore(i, "loser", -points, points, pays=points,
                                  explanation=f"holds {_listed(p.hand)}: pays {points}"))
    return RoundScore(deal.rules.name, winner, tuple(scores),
                      f"player {winner} went out; every other player pays the points of the "
                      "cards left in its hand", tuple(s.points for s in scores))


# ---------------------------------------------------------------------------
# rummy500 / rommy


def _group_points(group: list[int], deal: Deal) -> tuple[int, Meld | None]:
    """A melded group's points: as a meld, its reading worth most (the
    player's, as ``solve`` melds it: with aces wild AH 2H 3H is 2-3-4, not a
    6-point A-2-3), else card by card at each card's melded points (the cards
    lie on the table, laid off onto other melds), not its points in hand: the
    two differ under ``card_points`` overrides."""
    meld = richest_reading(group, deal)
    if meld is not None:
        return meld.points, meld
    return sum(melded_points(c, c, deal, False) for c in group), None


def _score_net(players: list[_Parsed], deal: Deal) -> RoundScore:
    rules = deal.rules
    scores = []
    for i, p in enumerate(players):
        melded = 0
        melds: list[Meld] = []
        loose: list[int] = []
        for group in p.melded or []:
            points, meld = _group_points(group, deal)
            melded += points
            if meld is None:
                loose.extend(group)
            else:
                melds.append(meld)
        melded += sum(points for _, _, points in p.laid_off)
        in_hand = _hand_points(p.hand, deal)
        penalty = p.info.pile_penalties * rules.pile_penalty
        net = melded - in_hand - penalty
        why = f"melded {melded} - hand {in_hand}"
        if loose:
            why += f" (laid off {_listed(loose)} counted card by card)"
        for cards, onto, points in p.laid_off:
            why += f" ({_listed(cards)} laid onto {_listed(onto)}: {points})"
        if penalty:
            why += f" - pile penalty {p.info.pile_penalties} x {rules.pile_penalty}"
        scores.append(PlayerScore(i, "winner" if p.info.went_out else "player", net, in_hand,
                                  melded_points=melded, melds=tuple(melds),
                                  explanation=f"{why} = {net}"))
    winner = next((i for i, p in enumerate(players) if p.info.went_out), None)
    return RoundScore(rules.name, winner, tuple(scores),
                      "each player scores melded points minus the points left in hand",
                      tuple(s.points for s in scores))


# ---------------------------------------------------------------------------
# indian13 / indian21


def _shown(p: _Parsed, deal: Deal) -> tuple[list[Meld], list[int]]:
    """The valid melds of a player's shown groups and every card that counts loose.

    The groups are read as ``validate`` reads a declaration: a group that
    reads several ways (wild cards making a set or a run) takes the reading
    that meets the declaration's requirements when its preferred one misses
    them."""
    melds: list[Meld] = []
    loose = list(p.hand)
    groups = p.melded or []
    for group, meld in zip(groups, chosen_readings(groups, deal), strict=True):
        if meld is None:
            loose.extend(group)
        else:
            melds.append(meld)
    return melds, loose


def _declaration_ok(
    index: int, p: _Parsed, deal: Deal, variant: str, budget: Deadline
) -> tuple[bool, tuple[Meld, ...], str]:
    size = deal.rules.hand_size
    total = len(p.cards)
    if total not in (size, size + 1):
        raise InvalidHandError(
            f"players[{index}] declared with {total} cards; {variant} shows {size} "
            f"(or {size + 1} with the discard)",
            code="wrong_hand_size", field=f"players[{index}].hand",
        )
    if p.melded is None:
        solution = Session(deal, budget).solution(p.hand, total == size + 1, go_out=False)
        if not solution.declarable:
            _check_proved(solution, index, "its show")
        why = "valid show" if solution.declarable else (
            f"no valid show: the best arrangement still counts {solution.deadwood_points}")
        return solution.declarable, solution.melds, why
    melds, loose = _shown(p, deal)
    invalid = [g for g in p.melded if not is_meld(g, deal)]
    allowed_loose = 1 if total == size + 1 else 0
    if invalid:
        return False, tuple(melds), f"group {_listed(invalid[0])} is not a meld"
    if len(loose) > allowed_loose:
        return False, tuple(melds), f"cards {_listed(loose)} are not melded"
    if not meets_declaration(melds, deal):
        return False, tuple(melds), (
            "the melds miss the declaration: "
            + "; ".join(f"{item.describe()} needed, {have} shown"
                        for item, have in unmet_requirements(melds, deal.rules)))
    return True, tuple(melds), "valid show"


def _count(index: int, p: _Parsed, deal: Deal, budget: Deadline) -> tuple[int, tuple[Meld, ...]]:
    """A loser's uncapped count: of its shown groups, else its best arrangement."""
    if p.melded is None:
        solution = Session(deal, budget).solution(p.hand, False, go_out=False)
        _check_proved(solution, index, "its least count")
        return solution.deadwood_points, solution.melds
    melds, loose = _shown(p, deal)
    return score_arrangement(melds, loose, deal).deadwood_points, tuple(melds)


def value_cards(deal: Deal) -> tuple[int, ...]:
    """indian21 value cards: the cut card and its upper and lower neighbours
    in its suit (none when the cut card has no suit)."""
    if deal.cut_card is None:
        return ()
    rank, suit = rank_of(deal.cut_card), suit_of(deal.cut_card)
    return (make_card((rank - 1) % 13, suit), deal.cut_card, make_card((rank + 1) % 13, suit))


def value_points(cards: Iterable[int], deal: Deal) -> tuple[int, int, int]:
    """(points, marriages, loose value cards) of a player's cards."""
    valued = value_cards(deal)
    if not valued:
        return 0, 0, 0
    held = list(cards)
    copies = [held.count(c) for c in valued]
    marriages = min(copies)
    loose = sum(copies) - 3 * marriages
    rules = deal.rules
    return marriages * rules.marriage_points + loose * rules.value_card_points, marriages, loose


def _score_indian(players: list[_Parsed], deal: Deal, variant: str, budget: Deadline) -> RoundScore:
    ruleset = deal.rules
    winner = next((i for i, p in enumerate(players) if p.info.went_out), None)
    winner_melds: tuple[Meld, ...] = ()
    if winner is None:
        standing = [i for i, p in enumerate(players) if p.info.dropped is None]
        if len(standing) != 1:
            raise InvalidHandError(
                f"{variant}: say which player declared (went_out: true), or mark every other "
                "player dropped",
                code="no_winner", field="players",
            )
        winner = standing[0]
        why_winner = "every other player dropped"
    else:
        valid, winner_melds, why = _declaration_ok(winner, players[winner], deal, variant,
                                                   budget)
        if not valid:
            return _wrong_declaration(players, deal, winner, why)
        why_winner = f"declared: {why}"
    doubled = players[winner].info.rummy
    scores: list[PlayerScore | None] = [None] * len(players)
    collected = 0
    for i, p in enumerate(players):
        if i == winner:
            continue
        hand_points = _hand_points(p.cards, deal)
        if p.info.dropped is not None:
            pays = ruleset.drop_first if p.info.dropped == "first" else ruleset.drop_middle
            collected += pays
            scores[i] = PlayerScore(i, "dropped", -pays, hand_points, pays=pays,
                                    explanation=f"dropped ({p.info.dropped}): pays {pays}")
            continue
        count, melds = _count(i, p, deal, budget)
        pays = count
        steps = [f"count {count}"]
        if ruleset.points_cap is not None and pays > ruleset.points_cap:
            pays = ruleset.points_cap
            steps.append(f"capped at {pays}")
        if not p.info.had_turn:
            pays //= 2
            steps.append(f"halved (no turn yet) to {pays}")
        elif doubled:  # 003: hand rummy doubles the opponents that already played
            pays *= 2
            steps.append(f"doubled (hand rummy) to {pays}")
        collected += pays
        scores[i] = PlayerScore(i, "loser", -pays, hand_points, count=count, pays=pays, melds=melds,
                                explanation=", ".join(steps) + f": pays {pays}")
    scores[winner] = PlayerScore(winner, "winner", collected, _hand_points(players[winner].cards, deal),
                                 melds=winner_melds,
                                 explanation=f"{why_winner}; collects {collected}")
    final = [s for s in scores if s is not None]
    text = f"player {winner} wins ({why_winner}) and collects {collected}"
    if ruleset.value_cards:
        final, value_text = _settle_values(players, final, deal)
        text += value_text
    return RoundScore(ruleset.name, winner, tuple(final), text, tuple(s.points for s in final))


def _wrong_declaration(players: list[_Parsed], deal: Deal, declarer: int, why: str) -> RoundScore:
    penalty = deal.rules.wrong_declaration
    scores = []
    for i, p in enumerate(players):
        hand_points = _hand_points(p.cards, deal)
        if i == declarer:
            scores.append(PlayerScore(i, "wrong_declaration", -penalty, hand_points, pays=penalty,
                                      explanation=f"wrong declaration ({why}): pays {penalty}"))
        else:
            scores.append(PlayerScore(i, "player", 0, hand_points,
                                      explanation="pays nothing: the declaration was wrong"))
    return RoundScore(deal.rules.name, None, tuple(scores),
                      f"player {declarer} declared wrongly ({why}) and pays {penalty}; "
                      "nobody else pays", tuple(s.points for s in scores))


def _settle_values(
    players: list[_Parsed], scores: list[PlayerScore], deal: Deal
) -> tuple[list[PlayerScore], str]:
    values = [value_points(p.cards, deal) for p in players]
    total = sum(v[0] for v in values)
    n = len(players)
    if not value_cards(deal):
        return scores, "; no value cards (the cut card has no suit)"
    out = []
    for score, (value, marriages, loose) in zip(scores, values, strict=True):
        settled = n * value - total
        note = f"; value cards {value} ({marriages} marriage(s), {loose} single) settle {settled:+d}"
        out.append(PlayerScore(
            score.index, score.role, score.points + settled, score.hand_points,
            score.melded_points, score.count, score.pays, value, score.melds,
            score.explanation + note,
        ))
    cut = _listed(value_cards(deal))
    return out, f"; value cards {cut} settled between all players (n x own - total {total})"

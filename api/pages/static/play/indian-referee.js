// The referee of one deal of 13-card Indian rummy, in the browser: a seeded deal for 2 to 4
// players (two decks and a printed joker each, 106 cards), the cut card (its rank is wild) under
// the stock, the discard pile, whose turn it is, every hand, the legal moves of the player to
// act, and the public history exactly as POST /v1/advise wants it (solver/play/indian/state.py
// replays the same rules).  Its actions, phases and numbers (the indian13 preset's: a first
// drop, a later one, a wrong show, the cap; docs/RULES.md) come from words.js; the round itself
// is scored by POST /v1/score/round, and once it is over its record (the whole deal, every
// action) is what POST /v1/review takes.  No DOM here: the page (indian.js) draws it, and tests
// drive it directly.
// A classic script: it defines `IndianReferee` (it needs words.js and seeded.js).
"use strict";

(() => {
  const RANKS = "A23456789TJQK";
  const SUITS = "SHDC";
  const JOKER = "JK";
  const W = window.RummyWords;
  // The indian13 preset's numbers: DROP_FIRST before the player's first draw, DROP_MIDDLE any
  // later turn, WRONG_DECLARATION, POINTS_CAP the most a loser's count costs.
  const {
    GAME, HAND, DECKS, JOKERS_PER_DECK, DROP_FIRST, DROP_MIDDLE, WRONG_DECLARATION, POINTS_CAP, REQUIREMENTS,
  } = W.INDIAN13;
  const MIN_PLAYERS = 2;
  const MAX_PLAYERS = 4; // the page's table; the advisor takes up to 6
  const { SEED_MAX, mix, shuffle, randomSeed } = window.RummySeeded;

  /** What a show needs, in words ("2 sequences and 1 pure sequence"). */
  function showNeeds() {
    return REQUIREMENTS.map((r) => `${r.count} ${r.kind.replace(/_/g, " ")}${r.count > 1 ? "s" : ""}`).join(" and ");
  }

  /** The 106 cards: every card of two decks, and two printed jokers. */
  function deck() {
    const cards = [];
    for (let d = 0; d < DECKS; d++) {
      for (const suit of SUITS) for (const rank of RANKS) cards.push(rank + suit);
      for (let j = 0; j < JOKERS_PER_DECK; j++) cards.push(JOKER);
    }
    return cards;
  }

  /** The cards in the order deal `dealNumber` of `seed` deals them (Fisher-Yates). */
  function shuffled(seed, dealNumber, players) {
    return shuffle(deck(), mix(seed, dealNumber, players));
  }

  /** The deal rotates; deal 1 is dealt by the last seat, so seat 0 (the human) plays first. */
  function dealerOf(dealNumber, players) {
    return (players - 1 + dealNumber - 1) % players;
  }

  /** The cards of `cards` not in `groups` (copies counted: two decks). */
  function without(cards, groups) {
    const left = [...cards];
    for (const card of groups.flat()) {
      const at = left.indexOf(card);
      if (at >= 0) left.splice(at, 1);
    }
    return left;
  }

  function same(a, b) {
    return a.action === b.action && (a.card ?? null) === (b.card ?? null);
  }

  class Game {
    /** Deal `dealNumber` (1, 2 ...) of `seed` for `players` seats. */
    constructor(seed, dealNumber, players = 3) {
      if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
        throw new Error(`players must be ${MIN_PLAYERS} to ${MAX_PLAYERS}; got ${players}`);
      }
      const cards = shuffled(seed, dealNumber, players);
      this.seed = seed;
      this.dealNumber = dealNumber;
      this.players = players;
      this.dealer = dealerOf(dealNumber, players);
      this.hands = [];
      for (let k = 0; k < players; k++) {
        const seat = (this.dealer + 1 + k) % players; // dealt from the dealer's left
        this.hands[seat] = cards.slice(k * HAND, (k + 1) * HAND);
      }
      this.dealt = this.hands.map((hand) => [...hand]); // for the record, once the deal is over
      // The next card is cut: face up under the stock, never drawn; its rank is wild.
      this.cutCard = cards[players * HAND];
      this.upcard = cards[players * HAND + 1];
      this.pile = [this.upcard];
      this.stock = cards.slice(players * HAND + 2); // drawn from the end
      this.history = [];
      this.events = []; // every action, as POST /v1/review records it (stock draws with `drawn`)
      this.phase = W.DRAW; // then AFTER_DRAW, OVER
      this.toAct = (this.dealer + 1) % players;
      this.turns = new Array(players).fill(0); // turns started by drawing
      this.dropped = new Array(players).fill(null); // FIRST_DROP or MIDDLE_DROP
      this.taken = null; // the card taken from the pile this turn
      this.ending = null; // DECLARE, "dropped" (one player left) or "void" (stock gone)
      this.declaration = null; // {player, card, melds, deadwood, kept}
    }

    /** The cut card as POST /v1/advise and the solver read it ("7H", or "JK"). */
    get wildRank() {
      return this.cutCard;
    }

    /** Whether `card` is wild this deal: a printed joker, or a card of the cut rank. */
    isWild(card) {
      if (card === JOKER) return true;
      return this.cutCard !== JOKER && card[0] === this.cutCard[0];
    }

    get pileTop() {
      return this.pile.length ? this.pile[this.pile.length - 1] : null;
    }

    /** Seats still in the deal, in turn order from seat 0. */
    get active() {
      return [...this.hands.keys()].filter((s) => this.dropped[s] === null);
    }

    /** The card the player to act took from the pile this turn: it may not go back at once. */
    get takenThisTurn() {
      return this.phase === W.AFTER_DRAW ? this.taken : null;
    }

    /** The drop the player to act may make now (FIRST_DROP or MIDDLE_DROP), or null. */
    get canDrop() {
      if (this.phase !== W.DRAW) return null;
      return this.turns[this.toAct] === 0 ? W.FIRST_DROP : W.MIDDLE_DROP;
    }

    dropCost(stage = this.canDrop) {
      return stage === W.FIRST_DROP ? DROP_FIRST : stage === W.MIDDLE_DROP ? DROP_MIDDLE : null;
    }

    /** The body of POST /v1/hints/discard for the player to act after drawing: every discard
     * of its 14 cards, ranked, with the best arrangement of the 13 kept (declarable or not). */
    discardHintRequest() {
      if (this.phase !== W.AFTER_DRAW) return null;
      return { variant: GAME, wild_rank: this.wildRank, hand: [...this.hands[this.toAct]] };
    }

    /** Whether the player to act may throw `card`: not the card it took from the pile this
     * turn, unless it holds another copy of it (two decks: the copy it held may go). */
    mayThrow(card) {
      const hand = this.hands[this.toAct];
      return card !== this.takenThisTurn || hand.filter((c) => c === card).length >= 2;
    }

    /** The valid show of POST /v1/hints/discard's answer, as the advisor offers it: the first
     * discard (in the answer's order) leaving a declarable hand, never the card just taken. */
    declarationFrom(hint) {
      if (!hint || this.phase !== W.AFTER_DRAW) return null;
      for (const option of hint.options) {
        if (option.solution.declarable && this.mayThrow(option.discard)) {
          return { action: W.DECLARE, card: option.discard, melds: option.solution.melds.map((m) => [...m.cards]) };
        }
      }
      return null;
    }

    /** A show throwing `card` with the best arrangement of the 13 kept (from the same hint
     * answer): valid or not, the page lets the human make it, and POST /v1/validate judges it. */
    showThrowing(hint, card) {
      const option = hint && hint.options.find((o) => o.discard === card);
      if (!option) return null;
      return { action: W.DECLARE, card, melds: option.solution.melds.map((m) => [...m.cards]) };
    }

    /**
     * The legal moves of the player to act, in the advisor's words ({action, card, melds}).
     * `declaration` is `declarationFrom(hint)`: the valid show, offered when there is one.
     */
    legalMoves(declaration = null) {
      switch (this.phase) {
        case W.DRAW: {
          const moves = [];
          if (this.pileTop !== null) moves.push({ action: W.TAKE_DISCARD, card: this.pileTop });
          if (this.stock.length > 0) moves.push({ action: W.DRAW_STOCK });
          moves.push({ action: W.DROP });
          return moves;
        }
        case W.AFTER_DRAW: {
          const cards = [...new Set(this.hands[this.toAct])].filter((c) => this.mayThrow(c));
          const moves = cards.map((card) => ({ action: W.DISCARD, card }));
          if (declaration) moves.push(declaration);
          return moves;
        }
        default:
          return [];
      }
    }

    /** Whether `move` may be played now.  A declare may throw any card but the one just taken:
     * a wrong show is a legal move that costs the declarer (POST /v1/validate decides). */
    isLegal(move, declaration = null) {
      if (move.action === W.DECLARE) {
        return this.phase === W.AFTER_DRAW && Array.isArray(move.melds) && this.mayThrow(move.card)
          && this.hands[this.toAct].includes(move.card);
      }
      return this.legalMoves(declaration).some((m) => same(m, move));
    }

    _next(seat) {
      for (let k = 1; k <= this.players; k++) {
        const other = (seat + k) % this.players;
        if (this.dropped[other] === null) return other;
      }
      return seat;
    }

    /** Play `move` for the player to act; returns the public event and, for a stock draw, the
     * card drawn as `drawn` (not in the public event). */
    apply(move) {
      const seat = this.toAct;
      const hand = this.hands[seat];
      const fail = (why) => {
        throw new Error(`seat ${seat} cannot ${move.action}${move.card ? " " + move.card : ""} now: ${why}`);
      };
      if (this.phase === W.OVER) fail("the deal is over");
      let event;
      let drawn = null;
      switch (move.action) {
        case W.DROP: {
          if (this.phase !== W.DRAW) fail("a drop is only allowed at the start of a turn");
          this.dropped[seat] = this.turns[seat] === 0 ? W.FIRST_DROP : W.MIDDLE_DROP;
          event = { player: seat, action: W.DROP };
          if (this.active.length <= 1) {
            this.phase = W.OVER;
            this.ending = "dropped";
          } else {
            this.toAct = this._next(seat);
          }
          break;
        }
        case W.TAKE_DISCARD:
          if (this.phase !== W.DRAW) fail("not the start of a turn");
          if (this.pileTop === null || move.card !== this.pileTop) fail(`the pile top is ${this.pileTop}`);
          hand.push(this.pile.pop());
          this.taken = move.card;
          this.turns[seat] += 1;
          this.phase = W.AFTER_DRAW;
          event = { player: seat, action: W.TAKE_DISCARD, card: move.card };
          break;
        case W.DRAW_STOCK:
          if (this.phase !== W.DRAW) fail("not the start of a turn");
          if (!this.stock.length) fail("the stock is empty");
          drawn = this.stock.pop();
          hand.push(drawn);
          this.taken = null;
          this.turns[seat] += 1;
          this.phase = W.AFTER_DRAW;
          event = { player: seat, action: W.DRAW_STOCK };
          break;
        case W.DISCARD:
        case W.DECLARE: {
          if (this.phase !== W.AFTER_DRAW) fail("nothing to throw: draw first");
          if (!this.mayThrow(move.card)) fail("it was just taken from the pile (and no other copy is held)");
          const at = hand.indexOf(move.card);
          if (at < 0) fail("the card is not in the hand");
          if (move.action === W.DECLARE && !Array.isArray(move.melds)) fail("a show needs its melds");
          hand.splice(at, 1);
          this.pile.push(move.card);
          this.taken = null;
          event = { player: seat, action: move.action, card: move.card };
          if (move.action === W.DECLARE) {
            const melds = move.melds.map((m) => [...m]);
            event.melds = melds;
            this.declaration = {
              player: seat, card: move.card, melds, deadwood: without(hand, melds), kept: [...hand],
              valid: null, problems: [],
            };
            this.phase = W.OVER;
            this.ending = W.DECLARE;
          } else if (this.stock.length === 0) {
            this.phase = W.OVER; // the last stock card drawn and thrown: a void deal
            this.ending = "void";
          } else {
            this.phase = W.DRAW;
            this.toAct = this._next(seat);
          }
          break;
        }
        default:
          fail("unknown action");
      }
      this.history.push(event);
      this.events.push(drawn === null ? { ...event } : { ...event, drawn });
      return { event, drawn };
    }

    /** The deal as a recorded game (solver/review/record.py, the body of POST /v1/review):
     * every seat's dealt cards, the upcard, the cut card as `wild_rank`, and every action, a
     * stock draw with the card drawn.  A show lists every card it shows: a wrong show's cards
     * left out of its melds are one more group (a record's declaration shows all 13).  Only
     * once the deal is over: it shows every card.  `players`: an id per seat. */
    record(players) {
      if (this.phase !== W.OVER) throw new Error("the deal is not over: its record would show hidden cards");
      if (players.length !== this.players) throw new Error(`players must name ${this.players} seats; got ${players.length}`);
      const shown = this.declaration;
      const events = this.events.map((e) => {
        const copy = JSON.parse(JSON.stringify(e));
        if (e.action === W.DECLARE && shown.deadwood.length) copy.melds.push([...shown.deadwood]);
        return copy;
      });
      return {
        game: GAME, players: [...players], dealer: this.dealer,
        deal: { hands: this.dealt.map((hand) => [...hand]), upcard: this.upcard, wild_rank: this.wildRank },
        events,
      };
    }

    /** What seat `seat` sees, as the body of POST /v1/advise (never another seat's cards). */
    adviceRequest(seat, { level = "standard", seed = null } = {}) {
      return {
        game: GAME, wild_rank: this.wildRank, players: this.players, me: seat, dealer: this.dealer,
        hand: [...this.hands[seat]], upcard: this.upcard, history: this.history.map((e) => ({ ...e })),
        discard_pile: [...this.pile], stock_count: this.stock.length, level,
        seed: seed ?? mix(this.seed, this.dealNumber, this.history.length, seat),
      };
    }

    /** The body of POST /v1/validate for the show: its melds, the kept cards left out, the hand. */
    validateRequest() {
      const d = this.declaration;
      if (!d) return null;
      return { variant: GAME, wild_rank: this.wildRank, melds: d.melds.map((m) => [...m]), deadwood: [...d.deadwood], hand: [...d.kept] };
    }

    /** Record POST /v1/validate's verdict: a show is right when it is valid and declarable. */
    judge(report) {
      this.declaration.valid = Boolean(report.valid && report.declarable);
      this.declaration.problems = report.problems.map((p) => p.message);
      if (this.declaration.valid === false && !this.declaration.problems.length) {
        const loose = this.declaration.deadwood;
        this.declaration.problems = [loose.length
          ? `${loose.join(" ")} ${loose.length === 1 ? "is" : "are"} not in any meld: a show melds every card`
          : `the melds lack the sequences a show needs: ${showNeeds()}`];
      }
      return this.declaration.valid;
    }

    /** Hand rummy: the winner showed on its first turn (the count it collects doubles). */
    get handRummy() {
      const d = this.declaration;
      return Boolean(d && d.valid && this.turns[d.player] === 1);
    }

    /** The body of POST /v1/score/round for the finished deal (null for a void deal: nobody
     * pays).  Every player in seat order: the declarer's groups shown, a dropped player's stage,
     * the others' cards (arranged for their least count; no turn yet: they pay half). */
    scoreRequest() {
      if (this.ending === "void" || this.phase !== W.OVER) return null;
      const players = this.hands.map((hand, seat) => {
        if (this.dropped[seat]) return { dropped: this.dropped[seat] };
        const d = this.declaration;
        if (d && d.player === seat) {
          return { hand: [...d.deadwood], melded: d.melds.map((m) => [...m]), went_out: true, rummy: this.handRummy };
        }
        return { hand: [...hand], had_turn: this.turns[seat] > 0 };
      });
      return { variant: GAME, wild_rank: this.wildRank, players };
    }
  }

  window.IndianReferee = Object.freeze({
    Game, GAME, HAND, DECKS, JOKERS_PER_DECK, MIN_PLAYERS, MAX_PLAYERS, DROP_FIRST, DROP_MIDDLE,
    WRONG_DECLARATION, POINTS_CAP, SEED_MAX, dealerOf, shuffled, mix, randomSeed, without, showNeeds,
  });
})();

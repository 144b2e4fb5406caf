// The referee of one demo hand of gin, in the browser: a seeded deal, whose turn it is, the
// stock, the pile and both hands, the legal moves of the player to act, and the public
// history exactly as POST /v1/advise wants it (solver/play/gin/state.py replays the same
// rules).  Its actions, phases and numbers are the library's, from words.js.  No DOM here:
// the page (gin.js) draws it, and tests drive it directly.
// A classic script: it defines `GinReferee` (it needs words.js and seeded.js).
"use strict";

(() => {
  const RANKS = "A23456789TJQK";
  const SUITS = "SHDC";
  const W = window.RummyWords;
  // WALL: a turn that starts with this many stock cards may only knock with the pile top, or pass
  const { GAME, HAND, WALL, MATCH_TARGET } = W.GIN;
  const { SEED_MAX, mix, shuffle, randomSeed } = window.RummySeeded;

  function deck() {
    const cards = [];
    for (const suit of SUITS) for (const rank of RANKS) cards.push(rank + suit);
    return cards;
  }

  /** The 52 cards in the order hand `handNumber` of match `seed` deals them. */
  function shuffled(seed, handNumber) {
    return shuffle(deck(), mix(seed, handNumber));
  }

  /** Hands alternate dealers; the first hand of a match is dealt by seat 1. */
  function dealerOf(handNumber) {
    return handNumber % 2;
  }

  function same(a, b) {
    return a.action === b.action && (a.card ?? null) === (b.card ?? null);
  }

  class Game {
    /** Deal hand `handNumber` (1, 2 ...) of the match `seed`. */
    constructor(seed, handNumber) {
      const cards = shuffled(seed, handNumber);
      this.seed = seed;
      this.handNumber = handNumber;
      this.dealer = dealerOf(handNumber);
      const first = 1 - this.dealer;
      this.hands = [[], []];
      this.hands[first] = cards.slice(0, HAND);
      this.hands[this.dealer] = cards.slice(HAND, 2 * HAND);
      this.dealt = this.hands.map((hand) => [...hand]); // for the record, once the hand is over
      this.upcard = cards[2 * HAND];
      this.pile = [this.upcard];
      this.stock = cards.slice(2 * HAND + 1); // drawn from the end
      this.history = [];
      this.events = []; // every action, as POST /v1/review records it (stock draws with `drawn`)
      this.phase = W.FIRST_UPCARD; // then DRAW, AFTER_DRAW, WALL, LAYOFF, OVER
      this.toAct = first;
      this.passes = 0;
      this.stockOnly = false; // both passed the upcard: the non-dealer draws from the stock
      this.mustKnock = false; // took the pile top at the wall: only a knock may follow
      this.knock = null; // the knock event, once a player knocked
      this.reply = null; // the defender's LAY_OFF move
      this.ending = null; // WALL or KNOCK once the hand is over
    }

    get pileTop() {
      return this.pile.length ? this.pile[this.pile.length - 1] : null;
    }

    /** The card the player to act took from the pile this turn: it may not go back at once. */
    get takenThisTurn() {
      if (this.phase !== W.AFTER_DRAW || !this.history.length) return null;
      const last = this.history[this.history.length - 1];
      return last.player === this.toAct && last.action === W.TAKE_DISCARD ? last.card : null;
    }

    /** The hand POST /v1/gin/knock should check for the player to act: its 11 cards when
     * discarding, its 10 and the pile top at the wall (null otherwise). */
    knockCheckHand() {
      if (this.phase === W.AFTER_DRAW) return [...this.hands[this.toAct]];
      if (this.phase === W.WALL && this.pileTop !== null) return [...this.hands[this.toAct], this.pileTop];
      return null;
    }

    /**
     * The legal moves of the player to act, in the advisor's words ({action, card, melds,
     * deadwood}).  `knocks` is POST /v1/gin/knock's answer for `knockCheckHand()` (its options:
     * the discards that may knock, with the melds to show); without it no knock is offered.
     * The defender's reply to a knock is not listed here: it is the one exact lay_off.
     */
    legalMoves(knocks = null) {
      const options = knocks && knocks.can_knock ? knocks.options : [];
      switch (this.phase) {
        case W.FIRST_UPCARD:
          return [{ action: W.TAKE_DISCARD, card: this.pileTop }, { action: W.PASS }];
        case W.DRAW:
          if (this.stockOnly || this.pileTop === null) return [{ action: W.DRAW_STOCK }];
          return [{ action: W.TAKE_DISCARD, card: this.pileTop }, { action: W.DRAW_STOCK }];
        case W.WALL: {
          const moves = [{ action: W.PASS }];
          if (options.some((o) => o.discard !== null && o.discard !== this.pileTop)) {
            moves.unshift({ action: W.TAKE_DISCARD, card: this.pileTop });
          }
          return moves;
        }
        case W.AFTER_DRAW: {
          const taken = this.takenThisTurn;
          const moves = [];
          for (const option of options) {
            if (option.discard === null || option.discard === taken) continue;
            moves.push({
              action: W.KNOCK, card: option.discard, deadwoodPoints: option.deadwood_points,
              gin: option.gin, melds: option.melds.map((m) => [...m.cards]), deadwood: [...option.deadwood],
            });
          }
          if (!this.mustKnock) {
            for (const card of this.hands[this.toAct]) {
              if (card !== taken) moves.push({ action: W.DISCARD, card });
            }
          }
          return moves;
        }
        default:
          return [];
      }
    }

    /** Whether `move` is one of `legalMoves(knocks)` (a knock: with the same thrown card). */
    isLegal(move, knocks = null) {
      if (this.phase === W.LAYOFF) return move.action === W.LAY_OFF;
      return this.legalMoves(knocks).some((m) => same(m, move));
    }

    /** Play `move` for the player to act; returns what the history gained (null for a lay_off),
     * and for a stock draw the card drawn as `drawn` (not in the public event). */
    apply(move) {
      const seat = this.toAct;
      const other = 1 - seat;
      const hand = this.hands[seat];
      const fail = (why) => {
        throw new Error(`seat ${seat} cannot ${move.action}${move.card ? " " + move.card : ""} now: ${why}`);
      };
      if (this.phase === W.OVER) fail("the hand is over");
      let event = null;
      let drawn = null;
      switch (move.action) {
        case W.PASS:
          if (this.phase === W.FIRST_UPCARD) {
            this.passes += 1;
            this.toAct = other;
            if (this.passes === 2) {
              this.phase = W.DRAW;
              this.stockOnly = true;
            }
          } else if (this.phase === W.WALL) {
            this.phase = W.OVER;
            this.ending = W.WALL;
          } else fail("pass is for the first upcard and the wall");
          event = { player: seat, action: W.PASS };
          break;
        case W.TAKE_DISCARD:
          if (![W.FIRST_UPCARD, W.DRAW, W.WALL].includes(this.phase) || this.stockOnly) fail("not a draw");
          if (move.card !== this.pileTop) fail(`the pile top is ${this.pileTop}`);
          this.mustKnock = this.phase === W.WALL;
          hand.push(this.pile.pop());
          this.phase = W.AFTER_DRAW;
          event = { player: seat, action: W.TAKE_DISCARD, card: move.card };
          break;
        case W.DRAW_STOCK:
          if (this.phase !== W.DRAW) fail("not a draw from the stock");
          drawn = this.stock.pop();
          hand.push(drawn);
          this.stockOnly = false;
          this.phase = W.AFTER_DRAW;
          event = { player: seat, action: W.DRAW_STOCK };
          break;
        case W.DISCARD:
        case W.KNOCK: {
          if (this.phase !== W.AFTER_DRAW) fail("nothing to discard");
          if (move.card === this.takenThisTurn) fail("it was just taken from the pile");
          if (move.action === W.DISCARD && this.mustKnock) fail("the pile top was taken at the wall: knock");
          const at = hand.indexOf(move.card);
          if (at < 0) fail("the card is not in the hand");
          hand.splice(at, 1);
          this.pile.push(move.card);
          event = { player: seat, action: move.action, card: move.card };
          if (move.action === W.KNOCK) {
            event.melds = move.melds.map((m) => [...m]);
            event.deadwood = [...move.deadwood];
            this.knock = event;
            this.phase = W.LAYOFF;
          } else {
            this.phase = this.stock.length <= WALL ? W.WALL : W.DRAW;
          }
          this.mustKnock = false;
          this.toAct = other;
          break;
        }
        case W.LAY_OFF:
          if (this.phase !== W.LAYOFF) fail("nobody knocked");
          this.reply = move;
          this.phase = W.OVER;
          this.ending = W.KNOCK;
          this.events.push({
            player: seat, action: W.LAY_OFF, melds: (move.melds || []).map((m) => [...m]),
            deadwood: [...(move.deadwood || [])],
            layoffs: (move.layoffs || []).map((l) => ({ target: l.target, cards: [...l.cards] })),
          });
          break;
        default:
          fail("unknown action");
      }
      if (event) {
        this.history.push(event);
        this.events.push(drawn === null ? { ...event } : { ...event, drawn });
      }
      return { event, drawn };
    }

    /** What seat `seat` sees, as the body of POST /v1/advise (never the other seat's cards). */
    adviceRequest(seat, { level = "standard", score = null, seed = null } = {}) {
      const body = {
        game: GAME, hand: [...this.hands[seat]], upcard: this.upcard,
        history: this.history.map((e) => ({ ...e })), me: seat, dealer: this.dealer,
        discard_pile: [...this.pile], stock_count: this.stock.length, level,
        seed: seed ?? mix(this.seed, this.handNumber, this.history.length, seat),
      };
      if (score) body.score = { me: score[seat], opponent: score[1 - seat], target: MATCH_TARGET };
      return body;
    }

    /** The hand as a recorded game (solver/review/record.py, the body of POST /v1/review):
     * the whole deal and every action, the stock draws with the card drawn.  Only once the
     * hand is over: it shows every card.  `score` is the match score before the hand. */
    record(players, score = null) {
      if (this.phase !== W.OVER) throw new Error("the hand is not over: its record would show hidden cards");
      const body = {
        game: GAME, players: [...players], dealer: this.dealer,
        deal: { hands: this.dealt.map((hand) => [...hand]), upcard: this.upcard },
        events: this.events.map((e) => JSON.parse(JSON.stringify(e))),
      };
      if (score) {
        body.score = [...score];
        body.target = MATCH_TARGET;
      }
      return body;
    }

    /** The body of POST /v1/gin/score: the knocker's 10 cards and the defender's. */
    scoreRequest() {
      const knocker = this.knock.player;
      return { knocker: [...this.hands[knocker]], defender: [...this.hands[1 - knocker]] };
    }
  }


  window.GinReferee = Object.freeze({
    Game, GAME, HAND, WALL, MATCH_TARGET, SEED_MAX, dealerOf, shuffled, mix, randomSeed,
  });
})();

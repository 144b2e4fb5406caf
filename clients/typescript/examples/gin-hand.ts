/**
 * A whole hand of gin, both seats played by the advisor (`POST /v1/advise`).
 *
 * The program is the table: it deals a seeded deck, holds each seat's cards
 * and the stock, and keeps the public history as the advisor wants it
 * (`{player, action, card, melds, deadwood}`). Each turn it sends the seat to
 * act only what that seat may know -- its own hand, the upcard, the history,
 * the discard pile and the stock count, never the other seat's cards -- and
 * plays the recommended move. The hand ends on a knock, scored by
 * `POST /v1/gin/score` (which sees both hands, as the table does when the
 * cards are shown), or at the wall (the stock down to 2 cards).
 *
 *   npm run build && node dist/examples/gin-hand.js [SEED] [LEVEL]
 *
 * with the service at RUMMY_SOLVER_URL (default http://127.0.0.1:8000) and, if
 * it has API keys, the key in RUMMY_SOLVER_API_KEY.
 * A game imports the client as "@rummy-solver/client"; this example sits
 * inside the package, so it imports the sources.
 */

import { pathToFileURL } from "node:url";

import {
  type AdviceResponse,
  type EventIn,
  type GinScoreResponse,
  type Level,
  type MoveOut,
  RummySolver,
} from "../src/index.js";

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
/** The turn starts with this many cards in the stock: the hand ends unless the player knocks. */
const WALL = 2;

export interface HandResult {
  /** How the hand ended. */
  readonly end: "knock" | "wall";
  /** The public history, as the advisor was sent it (the knock included). */
  readonly history: readonly EventIn[];
  /** The score of the knock (undefined at the wall: nobody scores). */
  readonly score: GinScoreResponse | undefined;
  /** Each seat's cards at the end. */
  readonly hands: readonly [readonly string[], readonly string[]];
  /** Cards left in the stock. */
  readonly stock: number;
}

export interface PlayOptions {
  readonly seed: number;
  /** How hard the advisor thinks (novice: a few ms a move). */
  readonly level?: Level;
  /** The dealer's seat; the other seat is offered the upcard first. */
  readonly dealer?: 0 | 1;
  /** Each move as it is played (default: none). */
  readonly print?: (line: string) => void;
  /** Each call's deadline in ms (the advisor's time_limit_ms follows it). */
  readonly deadlineMs?: number | undefined;
}

/** The 52 cards shuffled by a seeded generator: the same seed, the same deal. */
export function shuffledDeck(seed: number): string[] {
  const deck = [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));
  const random = mulberry32(seed);
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j] as string, deck[i] as string];
  }
  return deck;
}

/** Plays one hand to its end (see the module comment). */
export async function playHand(client: RummySolver, options: PlayOptions): Promise<HandResult> {
  const table = new Table(shuffledDeck(options.seed), options.dealer ?? 1);
  const print = options.print ?? ((): void => undefined);
  const level = options.level ?? "novice";
  print(`seed ${options.seed}, dealer seat ${table.dealer}, upcard ${table.upcard}`);
  for (const seat of [0, 1] as const) {
    print(`  seat ${seat}: ${table.hands[seat].join(" ")}`);
  }
  for (let turn = 0; ; turn += 1) {
    const seat = table.toAct;
    const advice = await client.advise({
      game: "gin",
      hand: [...table.hands[seat]],
      upcard: table.upcard,
      history: [...table.history],
      me: seat,
      dealer: table.dealer,
      discard_pile: [...table.pile],
      stock_count: table.stock.length,
      level,
      seed: options.seed * 1000 + turn,
    }, { deadlineMs: options.deadlineMs });
    const move = advice.recommended.move;
    print(describe(seat, advice, table));
    const end = table.play(seat, move);
    if (end === "wall") {
      print(`the wall: ${table.stock.length} cards left in the stock and seat ${seat} passes; nobody scores`);
      return table.result("wall", undefined);
    }
    if (end === "knock") {
      const knocker = table.hands[seat];
      const defender = table.hands[other(seat)];
      const score = await client.ginScore({ knocker: [...knocker], defender: [...defender] },
        { deadlineMs: options.deadlineMs });
      const winner = score.winner === "knocker" ? seat : other(seat);
      print(`score: ${score.outcome}, seat ${winner} (the ${score.winner}) wins ${score.points} points`);
      print(`  ${score.explanation}`);
      return table.result("knock", score);
    }
  }
}

type Seat = 0 | 1;

function other(seat: Seat): Seat {
  return seat === 0 ? 1 : 0;
}

/**
 * The cards, and the rules a referee would check; only the table sees both
 * hands. It keeps the history exactly as `/v1/advise` replays it.
 */
class Table {
  readonly dealer: Seat;
  readonly upcard: string;
  readonly hands: [string[], string[]];
  readonly stock: string[];
  readonly pile: string[];
  readonly history: EventIn[] = [];
  toAct: Seat;
  private phase: "first_upcard" | "draw" | "discard" | "wall" = "first_upcard";
  private passes = 0;
  private stockOnly = false;
  private mustKnock = false;
  private taken: string | undefined;

  constructor(deck: string[], dealer: Seat) {
    this.dealer = dealer;
    this.toAct = other(dealer);
    const first: string[] = [];
    const second: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      // one card at a time, the non-dealer first
      (i % 2 === 0 ? first : second).push(deck[i] as string);
    }
    this.hands = this.toAct === 0 ? [first, second] : [second, first];
    this.upcard = deck[20] as string;
    this.pile = [this.upcard];
    this.stock = deck.slice(21);
  }

  /** Plays `move` for `seat`; says when the hand ends. */
  play(seat: Seat, move: MoveOut): "knock" | "wall" | undefined {
    if (seat !== this.toAct) {
      throw new Error(`seat ${seat} moved out of turn`);
    }
    const hand = this.hands[seat];
    switch (move.action) {
      case "pass":
        return this.pass(seat);
      case "take_discard": {
        this.expect(["first_upcard", "draw", "wall"], move);
        if (this.stockOnly) {
          throw new Error("both passed the upcard: the non-dealer draws from the stock");
        }
        const card = this.pile.pop();
        if (card === undefined || card !== move.card) {
          throw new Error(`take_discard ${move.card ?? "?"} but the pile top is ${card ?? "nothing"}`);
        }
        hand.push(card);
        this.mustKnock = this.phase === "wall";
        this.taken = card;
        this.history.push({ player: seat, action: "take_discard", card });
        this.phase = "discard";
        return undefined;
      }
      case "draw_stock": {
        this.expect(["draw"], move);
        const card = this.stock.shift();
        if (card === undefined) {
          throw new Error("the stock is empty");
        }
        hand.push(card);
        this.stockOnly = false;
        this.taken = undefined;
        this.history.push({ player: seat, action: "draw_stock" });
        this.phase = "discard";
        return undefined;
      }
      case "discard":
      case "knock": {
        this.expect(["discard"], move);
        const card = move.card;
        const index = card === undefined || card === null ? -1 : hand.indexOf(card);
        if (card === undefined || card === null || index < 0) {
          throw new Error(`seat ${seat} throws ${card ?? "nothing"}, which it does not hold`);
        }
        if (card === this.taken) {
          throw new Error(`seat ${seat} throws back ${card}, the card it just took`);
        }
        if (this.mustKnock && move.action !== "knock") {
          throw new Error("the pile top was taken at the wall: only a knock may follow");
        }
        hand.splice(index, 1);
        this.pile.push(card);
        if (move.action === "knock") {
          this.history.push({
            player: seat, action: "knock", card, melds: move.melds ?? [], deadwood: move.deadwood ?? [],
          });
          return "knock";
        }
        this.history.push({ player: seat, action: "discard", card });
        this.toAct = other(seat);
        this.phase = this.stock.length <= WALL ? "wall" : "draw";
        return undefined;
      }
      default:
        throw new Error(`unexpected move ${JSON.stringify(move)} in phase ${this.phase}`);
    }
  }

  result(end: "knock" | "wall", score: GinScoreResponse | undefined): HandResult {
    return { end, history: this.history, score, hands: this.hands, stock: this.stock.length };
  }

  private pass(seat: Seat): "wall" | undefined {
    this.expect(["first_upcard", "wall"], { action: "pass" });
    this.history.push({ player: seat, action: "pass" });
    if (this.phase === "wall") {
      return "wall";
    }
    this.passes += 1;
    this.toAct = other(seat);
    if (this.passes === 2) {
      // both declined the upcard: the non-dealer (to act again) draws from the stock
      this.phase = "draw";
      this.stockOnly = true;
    }
    return undefined;
  }

  private expect(phases: readonly string[], move: MoveOut): void {
    if (!phases.includes(this.phase)) {
      throw new Error(`${move.action} is not a move in phase ${this.phase}`);
    }
  }
}

function describe(seat: Seat, advice: AdviceResponse, table: Table): string {
  const { move, reasons } = advice.recommended;
  const what = move.action === "knock"
    ? `knock, throwing ${move.card ?? "?"}: ${(move.melds ?? []).map((meld) => meld.join(" ")).join(" | ")}`
      + ` + deadwood ${(move.deadwood ?? []).join(" ") || "none (gin)"}`
    : [move.action, move.card].filter(Boolean).join(" ");
  const why = reasons.length > 0 ? ` -- ${reasons[0]}` : "";
  return `${String(table.history.length).padStart(3)}  seat ${seat}  ${advice.phase.padEnd(12)} ${what}${why}`;
}

/** A small seeded generator (mulberry32): enough to shuffle reproducibly. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(argv: readonly string[]): Promise<void> {
  const seed = Number(argv[0] ?? "1");
  const level = (argv[1] ?? "novice") as Level;
  if (!Number.isInteger(seed) || seed < 0) {
    throw new Error(`the seed must be a whole number; got ${argv[0]}`);
  }
  const client = new RummySolver({
    baseUrl: process.env["RUMMY_SOLVER_URL"] ?? "http://127.0.0.1:8000",
    apiKey: process.env["RUMMY_SOLVER_API_KEY"],
  });
  const result = await playHand(client, { seed, level, print: (line) => console.log(line) });
  console.log(`hand over: ${result.end} after ${result.history.length} moves, ${result.stock} cards in the stock`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

/**
 * The client against the live service (RUMMY_SOLVER_URL, started by
 * tests/test_typescript_client.py): typed answers, typed errors, the advisor,
 * the stream, and one method for every JSON operation of openapi.json.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";

import {
  type AdviseRequest,
  ERROR_CODES,
  type FamilyMove,
  GAME_WORDS,
  isKnownErrorCode,
  type MeldOut,
  type ReviewRequest,
  RummySolver,
  RummySolverError,
  type StreamAnswer,
} from "../src/index.js";
import { API_KEY, LIMITED_KEY, NO_SERVICE, SERVICE_URL } from "./helpers.js";

const BASE_URL = SERVICE_URL ?? "http://127.0.0.1:9";
const client = new RummySolver({ baseUrl: BASE_URL, apiKey: API_KEY });
const OPENAPI = resolve(process.cwd(), "..", "..", "openapi.json");

describe("the live service", { skip: NO_SERVICE }, () => {
  it("solves a hand, typed", async () => {
    const answer = await client.solveHand({ variant: "gin", hand: "AS 2S 3S 7H 7D 7C KD QH 4C 9S" },
      { deadlineMs: 2_000 });
    assert.equal(answer.deadwood_points, 33);
    assert.equal(answer.optimal, true);
    assert.equal(answer.status, "optimal");
    const runs = answer.melds.filter((meld: MeldOut) => meld.kind === "run").map((meld) => meld.cards.join(" "));
    assert.deepEqual(runs, ["AS 2S 3S"]);
  });

  it("answers a bad card with a 422 and typed error items", async () => {
    const error = await client.solveHand({ variant: "gin", hand: ["AS", "2S", "ZZ", "AS"] }, { requestId: "tc-422" })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof RummySolverError);
    assert.equal(error.status, 422);
    assert.equal(error.type, "invalid_card");
    assert.ok(error.has("invalid_card"));
    assert.deepEqual(error.items[0]?.loc, ["body", "hand", 2]);
    assert.match(error.items[0]?.msg ?? "", /unknown card 'ZZ'/);
    assert.equal(error.requestId, "tc-422");
    for (const item of error.items) {
      assert.ok(isKnownErrorCode(item.type), `${item.type} is not in ERROR_CODES`);
    }
  });

  it("answers a bad knob and an unknown field with their own codes", async () => {
    const error = await client.post("/v1/solve", {
      variant: "gin", hand: "AS 2S 3S", rules: { knock_limit: -1 }, engine: "auto",
    }).catch((caught: unknown) => caught);
    assert.ok(error instanceof RummySolverError && error.type === "invalid_rules", String(error));
    const typo = await client.post("/v1/solve", { variant: "gin", hand: "AS", handd: 1 } as never)
      .catch((caught: unknown) => caught);
    assert.ok(typo instanceof RummySolverError && typo.has("extra_forbidden"), String(typo));
  });

  it("validates a declared hand and checks a knock", async () => {
    const report = await client.validateHand({
      variant: "gin", melds: [["AS", "2S", "3S"], ["7H", "7D", "7C"]], deadwood: ["KD", "QH", "4C", "9S"],
    });
    assert.equal(report.valid, true);
    assert.equal(report.deadwood_points, 33);
    const knock = await client.ginKnock({ hand: "AS 2S 3S 7H 7D 7C 8C 9C TC 4H" });
    assert.equal(knock.can_knock, true);
    assert.equal(knock.min_deadwood, 4);
  });

  it("advises the first move of a gin hand from its public state", async () => {
    const state: AdviseRequest = {
      game: "gin", hand: "AS 2S 3S 7H 7D 7C KD QH 4C 9S", upcard: "4S", history: [],
      me: 0, dealer: 1, level: "novice", seed: 1,
    };
    const advice = await client.advise(state, { deadlineMs: 5_000 });
    assert.equal(advice.phase, GAME_WORDS.gin.phases[0]);
    const offered: FamilyMove<"gin">[] = ["take_discard", "pass"];
    assert.deepEqual(new Set(advice.moves.map((move) => move.move.action)), new Set(offered));
    const ginMoves: readonly string[] = GAME_WORDS.gin.moves;
    assert.ok(advice.moves.every((move) => ginMoves.includes(move.move.action)));
    assert.deepEqual(advice.recommended, advice.moves[0]);
    const notYours = await client.advise({ ...state, me: 1 }).catch((caught: unknown) => caught);
    assert.ok(notYours instanceof RummySolverError && notYours.type === "not_your_turn", String(notYours));
  });

  it("reviews a recorded game: each decision against the best, each player's figures", async () => {
    const game: ReviewRequest = {
      game: "gin", players: ["ann", "bob"], dealer: 1, level: "novice", seed: 1,
      deal: {
        hands: [["KH", "5C", "4S", "4D", "TS", "9C", "KS", "4C", "AD", "3C"],
                ["8D", "6H", "6S", "7D", "6D", "9D", "8H", "QC", "KC", "AC"]],
        upcard: "KD",
      },
      events: [
        { player: 0, action: "take_discard", card: "KD" },
        { player: 0, action: "discard", card: "9C" },
        { player: 1, action: "draw_stock", drawn: "4H" },
        { player: 1, action: "discard", card: "9D" },
      ],
    };
    const review = await client.reviewGame(game, { deadlineMs: 10_000 });
    assert.equal(review.reviewed, 4);
    assert.deepEqual(review.players.map((player) => player.player), ["ann", "bob"]);
    assert.ok(review.decisions.every((decision) => decision.best.action.length > 0));
    const notHeld: ReviewRequest["events"] = [{ player: 0, action: "take_discard", card: "KD" },
                                              { player: 0, action: "discard", card: "2H" }];
    const wrong = await client.reviewGame({ ...game, events: notHeld }).catch((caught: unknown) => caught);
    assert.ok(wrong instanceof RummySolverError && wrong.type === "card_not_held", String(wrong));
    // Out of its phase (the first upcard is offered) as well: the turn is the fault said.
    const early = await client.reviewGame({ ...game, events: [{ player: 0, action: "discard", card: "2H" }] })
      .catch((caught: unknown) => caught);
    assert.ok(early instanceof RummySolverError && early.type === "history_out_of_turn", String(early));
  });

  it("streams many requests and answers each line, errors in their line", async () => {
    const answers: StreamAnswer[] = [];
    for await (const answer of client.solveStream([
      { id: "a", variant: "gin", hand: "AS 2S 3S 7H 7D 7C KD QH 4C 9S" },
      { id: "b", op: "hint_discard", variant: "gin", hand: "AS 2S 3S 7H 7D 7C 8C 9C TC KH QD" },
      { id: "c", variant: "gin", hand: "AS ZZ" },
    ], { deadlineMs: 10_000 })) {
      answers.push(answer);
    }
    assert.deepEqual(answers.map((answer) => answer.id), ["a", "b", "c"]);
    const last = answers[2];
    assert.ok(last !== undefined && "error" in last && last.error.type === "invalid_card");
    assert.deepEqual(last.error.loc, ["line", "hand", 1]);
  });

  it("streams no lines as no answers", async () => {
    // It sent one blank line, and yielded the service's answer to it: "the line is empty".
    const answers: StreamAnswer[] = [];
    for await (const answer of client.solveStream([])) {
      answers.push(answer);
    }
    assert.deepEqual(answers, []);
  });

  it("answers a call without its API key with a 401", { skip: API_KEY === undefined && "the service has no keys" },
    async () => {
      const keyless = new RummySolver({ baseUrl: BASE_URL });
      const error = await keyless.solveHand({ variant: "gin", hand: "AS 2S 3S" }).catch((caught: unknown) => caught);
      assert.ok(error instanceof RummySolverError && error.status === 401 && error.type === "unauthorized",
        String(error));
    });

  it("answers a key over its rate with a 429 and Retry-After, which the retries do not outwait",
    { skip: LIMITED_KEY === undefined && "no rate-limited key" }, async () => {
      const limited = new RummySolver({ baseUrl: BASE_URL, apiKey: LIMITED_KEY, retry: { budgetMs: 2_000 } });
      await limited.solveHand({ variant: "gin", hand: "AS 2S 3S" }); // its one request an hour
      const started = performance.now();
      const error = await limited.solveHand({ variant: "gin", hand: "AS 2S 3S" }).catch((caught: unknown) => caught);
      assert.ok(error instanceof RummySolverError && error.status === 429 && error.has("rate_limited"), String(error));
      assert.ok((error.retryAfterMs ?? 0) > 2_000, `Retry-After ${error.retryAfterMs} ms`);
      assert.ok(performance.now() - started < 2_000, "it waited for a Retry-After past its budget");
    });

  it("lists the variants and answers an unknown one with not_found", async () => {
    const variants = await client.listVariants();
    assert.ok(variants.variants.some((variant) => variant.name === "gin"));
    const error = await client.getVariant("poker").catch((caught: unknown) => caught);
    assert.ok(error instanceof RummySolverError && error.status === 404 && error.type === "not_found");
  });
});

describe("the client against openapi.json", () => {
  it("has a method for every JSON operation", () => {
    const document = JSON.parse(readFileSync(OPENAPI, "utf8")) as {
      paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, unknown> } }>>;
    };
    const missing: string[] = [];
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods)) {
        const json = operation.requestBody?.content["application/json"] !== undefined;
        const name = operation.operationId.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
        if (json && typeof (client as unknown as Record<string, unknown>)[name] !== "function") {
          missing.push(`${operation.operationId} (RummySolver.${name})`);
        }
      }
    }
    assert.deepEqual(missing, [], "operations without a method in src/client.ts");
  });

  it("knows the stable error codes", () => {
    for (const code of ["invalid_card", "invalid_rules", "overloaded", "not_your_turn", "time_limit_too_large"]) {
      assert.ok(code in ERROR_CODES, code);
    }
    assert.equal(isKnownErrorCode("no_such_code"), false);
  });
});

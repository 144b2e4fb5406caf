/** The gin-hand example, played to its end against the live service. */

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, it } from "node:test";

import { playHand, shuffledDeck } from "../examples/gin-hand.js";
import { RummySolver } from "../src/index.js";
import { API_KEY, NO_SERVICE, SERVICE_URL } from "./helpers.js";

const EXAMPLE = fileURLToPath(new URL("../examples/gin-hand.js", import.meta.url));

describe("examples/gin-hand", { skip: NO_SERVICE }, () => {
  it("runs to the end of a hand and prints each move and the result", { timeout: 300_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [EXAMPLE, "1"], {
      env: { ...process.env, RUMMY_SOLVER_URL: SERVICE_URL },
      timeout: 280_000,
    });
    const lines = stdout.trimEnd().split("\n");
    assert.match(lines[0] ?? "", /^seed 1, dealer seat 1, upcard \w\w$/);
    assert.match(lines.at(-1) ?? "", /^hand over: (knock|wall) after \d+ moves, \d+ cards in the stock$/);
    if (lines.at(-1)?.includes("knock")) {
      assert.ok(lines.some((line) => /^score: (knock|gin|big_gin|undercut)/.test(line)), stdout);
    }
    assert.ok(lines.filter((line) => /^\s+\d+\s+seat [01]\s/.test(line)).length >= 3, stdout);
  });

  it("keeps every card in one place and the history the advisor accepted", { timeout: 300_000 }, async () => {
    const client = new RummySolver({ baseUrl: SERVICE_URL ?? "", apiKey: API_KEY });
    const result = await playHand(client, { seed: 7, dealer: 0 });
    assert.equal(result.history[0]?.player, 1); // the non-dealer is offered the upcard first
    const pile = shuffledDeck(7).length - result.hands[0].length - result.hands[1].length - result.stock;
    assert.equal(result.hands[0].length + result.hands[1].length, 20);
    assert.ok(pile >= 1);
    const seen = new Set([...result.hands[0], ...result.hands[1]]);
    assert.equal(seen.size, 20);
    if (result.end === "knock") {
      assert.equal(result.history.at(-1)?.action, "knock");
      assert.ok(result.score !== undefined && result.score.points >= 0);
    } else {
      assert.ok(result.stock <= 2);
    }
  });
});

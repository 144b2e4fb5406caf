/**
 * The retry helper and deadlines against a local server scripted to answer
 * 503 / 429 with Retry-After, hang, or refuse: no live service needed.
 */

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, it } from "node:test";

import { DeadlineExceededError, parseRetryAfter, RummySolver, RummySolverError, withRetries } from "../src/index.js";
import { answerError, answerJson, scriptedServer } from "./helpers.js";

const HAND = { variant: "gin", hand: "AS 2S 3S 7H 7D 7C KD QH 4C 9S" } as const;
const SOLVED = { variant: "gin", deadwood_points: 33 };

describe("retries", () => {
  it("waits what Retry-After says on 503, then succeeds", async () => {
    const server = await scriptedServer((n, _seen, response) =>
      n === 0 ? answerError(response, 503, "overloaded", { "Retry-After": "1" }) : answerJson(response, SOLVED));
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const answer = await client.solveHand(HAND);
      assert.equal(answer.deadwood_points, 33);
      assert.equal(server.seen.length, 2);
      const waited = (server.seen[1]?.at ?? 0) - (server.seen[0]?.at ?? 0);
      assert.ok(waited >= 990, `retried after ${waited} ms, not the 1 s of Retry-After`);
      assert.ok(waited < 3000, `retried after ${waited} ms`); // generous: a busy machine wakes late
      // one call, one request id, on every try
      assert.ok(server.seen[0]?.headers["x-request-id"]);
      assert.equal(server.seen[1]?.headers["x-request-id"], server.seen[0]?.headers["x-request-id"]);
    } finally {
      await server.close();
    }
  });

  it("honours Retry-After on 429 (rate limited) as well", async () => {
    const server = await scriptedServer((n, _seen, response) =>
      n === 0 ? answerError(response, 429, "rate_limited", { "Retry-After": "1" }) : answerJson(response, SOLVED));
    try {
      const retries: number[] = [];
      const client = new RummySolver({
        baseUrl: server.url, apiKey: "k-123", retry: { onRetry: ({ delayMs }) => retries.push(delayMs) },
      });
      await client.solveHand(HAND);
      assert.deepEqual(retries, [1000]);
      assert.equal(server.seen[1]?.headers["authorization"], "Bearer k-123");
    } finally {
      await server.close();
    }
  });

  it("gives up after the attempts it was allowed, with the last error", async () => {
    const server = await scriptedServer((_n, _seen, response) =>
      answerError(response, 503, "overloaded", { "Retry-After": "0" }));
    try {
      const client = new RummySolver({ baseUrl: server.url, retry: { attempts: 3 } });
      const error = await client.solveHand(HAND).catch((caught: unknown) => caught);
      assert.ok(error instanceof RummySolverError);
      assert.equal(error.status, 503);
      assert.equal(error.type, "overloaded");
      assert.equal(error.retryAfterMs, 0);
      assert.equal(server.seen.length, 3);
    } finally {
      await server.close();
    }
  });

  it("does not start a wait that ends past its time budget", async () => {
    const server = await scriptedServer((_n, _seen, response) =>
      answerError(response, 503, "overloaded", { "Retry-After": "5" }));
    try {
      const client = new RummySolver({ baseUrl: server.url, retry: { budgetMs: 2_000 } });
      const started = performance.now();
      const error = await client.solveHand(HAND).catch((caught: unknown) => caught);
      assert.ok(error instanceof RummySolverError && error.retryAfterMs === 5000);
      assert.equal(server.seen.length, 1);
      assert.ok(performance.now() - started < 1000, "it waited although the wait could not fit");
    } finally {
      await server.close();
    }
  });

  it("does not wait past the call's deadline either", async () => {
    const server = await scriptedServer((_n, _seen, response) =>
      answerError(response, 503, "overloaded", { "Retry-After": "1" }));
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const error = await client.solveHand(HAND, { deadlineMs: 500 }).catch((caught: unknown) => caught);
      assert.ok(error instanceof RummySolverError && error.status === 503);
      assert.equal(server.seen.length, 1);
    } finally {
      await server.close();
    }
  });

  it("never retries what the client got wrong (422)", async () => {
    const server = await scriptedServer((_n, _seen, response) => answerError(response, 422, "invalid_card"));
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const error = await client.solveHand(HAND).catch((caught: unknown) => caught);
      assert.ok(error instanceof RummySolverError && error.has("invalid_card"));
      assert.equal(server.seen.length, 1);
    } finally {
      await server.close();
    }
  });

  it("retries a connection that was refused, with backoff, then fails with fetch's error", async () => {
    const port = await closedPort();
    const delays: number[] = [];
    const client = new RummySolver({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { attempts: 3, baseDelayMs: 20, onRetry: ({ delayMs }) => delays.push(delayMs) },
    });
    await assert.rejects(client.solveHand(HAND), TypeError);
    assert.equal(delays.length, 2);
    assert.ok(delays.every((delay) => delay >= 10 && delay <= 40), `backoff delays ${delays.join(", ")}`);
  });

  it("retries any call given to withRetries", async () => {
    let calls = 0;
    const answer = await withRetries(async (attempt) => {
      calls += 1;
      if (attempt < 2) {
        throw new RummySolverError(503, [{ type: "overloaded", loc: [], msg: "busy" }], { retryAfterMs: 10 });
      }
      return "done";
    });
    assert.equal(answer, "done");
    assert.equal(calls, 2);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT");
    assert.equal(parseRetryAfter("3", now), 3000);
    assert.equal(parseRetryAfter("Wed, 21 Oct 2026 07:28:02 GMT", now), 2000);
    assert.equal(parseRetryAfter("Wed, 21 Oct 2026 07:27:00 GMT", now), 0);
    assert.equal(parseRetryAfter(null, now), undefined);
    assert.equal(parseRetryAfter("soon", now), undefined);
    assert.equal(parseRetryAfter("Wednesday, 21-Oct-26 07:28:02 GMT", now), 2000); // RFC 850
    assert.equal(parseRetryAfter("Wed Oct 21 07:28:02 2026", now), 2000); // asctime
    // what Date.parse alone reads as a date long past ("retry at once"): not a Retry-After
    for (const junk of ["1.5", "-5", "-1", "1, 2", "Mon 2", "abc 1"]) {
      assert.equal(parseRetryAfter(junk, now), undefined, junk);
    }
  });

  it("does not retry a TypeError of the caller's own making", async () => {
    const server = await scriptedServer((_n, _seen, response) => answerJson(response, SOLVED));
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const started = performance.now();
      await assert.rejects(client.solveHand(HAND, { requestId: "bad\nid" }), TypeError);
      assert.ok(performance.now() - started < 150, "retried with backoff");
      assert.equal(server.seen.length, 0);
    } finally {
      await server.close();
    }
  });
});

describe("answers the client cannot read", () => {
  for (const [what, body] of [["a page", "<html>hi</html>"], ["cut JSON", '{"variant":"gin","melds":['],
    ["nothing", ""], ["null", "null"], ["a number", "7"]] as const) {
    it(`makes a 200 with ${what} an http_error, not an answer`, async () => {
      const server = await scriptedServer((_n, _seen, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(body);
      });
      try {
        const client = new RummySolver({ baseUrl: server.url });
        const error = await client.solveHand(HAND, { requestId: "r-1" }).catch((caught: unknown) => caught);
        assert.ok(error instanceof RummySolverError, String(error));
        assert.equal(error.type, "http_error");
        assert.equal(error.requestId, "r-1");
        assert.equal(server.seen.length, 1); // not retried
      } finally {
        await server.close();
      }
    });
  }

  it("makes a stream line that is not JSON, or a stream cut short, an http_error", async () => {
    for (const [lines, ends] of [[["{\"id\":1,\"result\":{}}", "<html>"], "not JSON"],
      [["{\"id\":1,\"result\":{}}"], "cut"]] as const) {
      const server = await scriptedServer((_n, _seen, response) => {
        response.writeHead(200, { "content-type": "application/x-ndjson" });
        response.end(lines.join("\n") + "\n");
      });
      try {
        const client = new RummySolver({ baseUrl: server.url });
        const ids: unknown[] = [];
        const error = await (async () => {
          for await (const answer of client.solveStream([{ id: 1, ...HAND }, { id: 2, ...HAND }])) {
            ids.push(answer.id);
          }
        })().catch((caught: unknown) => caught);
        assert.ok(error instanceof RummySolverError && error.message.includes(ends), String(error));
        assert.equal(error.requestId, server.seen[0]?.headers["x-request-id"]); // the one sent
        assert.deepEqual(ids, [1]);
      } finally {
        await server.close();
      }
    }
  });

  it("takes a stream the service ended early with its own error line as complete", async () => {
    const server = await scriptedServer((_n, _seen, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.end([{ id: 1, result: SOLVED },
        { id: null, line: null, error: { type: "stream_time_exceeded", loc: [], msg: "600 s" } }]
        .map((line) => JSON.stringify(line)).join("\n") + "\n");
    });
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const answers = [];
      for await (const answer of client.solveStream([{ id: 1, ...HAND }, { id: 2, ...HAND }, { id: 3, ...HAND }])) {
        answers.push(answer);
      }
      assert.equal(answers.length, 2);
    } finally {
      await server.close();
    }
  });
});

describe("deadlines", () => {
  it("aborts a call past its deadline with DeadlineExceededError", async () => {
    const server = await scriptedServer(() => undefined); // never answers
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const started = performance.now();
      await assert.rejects(client.solveHand(HAND, { deadlineMs: 300 }), DeadlineExceededError);
      const took = performance.now() - started;
      assert.ok(took >= 290 && took < 2000, `gave up after ${took} ms`);
    } finally {
      await server.close();
    }
  });

  it("stops at once when the caller's signal aborts, with its reason", async () => {
    const server = await scriptedServer(() => undefined);
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("the player left")), 50);
      await assert.rejects(client.solveHand(HAND, { signal: controller.signal, deadlineMs: 5_000 }),
        /the player left/);
    } finally {
      await server.close();
    }
  });

  it("sends what is left of the deadline as time_limit_ms, within the operation's maximum", async () => {
    const server = await scriptedServer((_n, _seen, response) => answerJson(response, SOLVED));
    try {
      const client = new RummySolver({ baseUrl: server.url, deadlineMarginMs: 150 });
      const sent = (): Record<string, unknown> => JSON.parse(server.seen.at(-1)?.body ?? "{}") as Record<string, unknown>;

      await client.solveHand(HAND, { deadlineMs: 600 });
      const limit = sent()["time_limit_ms"] as number;
      assert.ok(limit <= 450 && limit > 350, `time_limit_ms ${limit} for a 600 ms deadline`);

      await client.solveHand(HAND, { deadlineMs: 60_000 });
      assert.equal(sent()["time_limit_ms"], 2000); // a solve's maximum
      await client.advise({ game: "gin", hand: HAND.hand, upcard: "4S" }, { deadlineMs: 60_000 });
      assert.equal(sent()["time_limit_ms"], 5000); // a play request's maximum

      await client.solveHand({ ...HAND, time_limit_ms: 100 }, { deadlineMs: 60_000 });
      assert.equal(sent()["time_limit_ms"], 100); // the body's own is never raised

      await client.validateHand({ variant: "gin", melds: [["AS", "2S", "3S"]], deadwood: [] }, { deadlineMs: 600 });
      assert.equal("time_limit_ms" in sent(), false); // validate takes none

      await client.solveHand(HAND);
      assert.equal("time_limit_ms" in sent(), false); // no deadline: the service's default
    } finally {
      await server.close();
    }
  });

  it("holds a stream to its deadline while its lines are read", async () => {
    const server = await scriptedServer((_n, _seen, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write(`${JSON.stringify({ id: 1, result: SOLVED })}\n`); // then nothing more
    });
    try {
      const client = new RummySolver({ baseUrl: server.url });
      const ids: unknown[] = [];
      const started = performance.now();
      await assert.rejects(async () => {
        for await (const answer of client.solveStream([{ id: 1, ...HAND }, { id: 2, ...HAND }], { deadlineMs: 400 })) {
          ids.push(answer.id);
        }
      }, DeadlineExceededError);
      assert.deepEqual(ids, [1]);
      assert.ok(performance.now() - started < 2000);
      assert.equal(server.seen[0]?.headers["content-type"], "application/x-ndjson");
      assert.equal(server.seen[0]?.body.split("\n").filter(Boolean).length, 2);
    } finally {
      await server.close();
    }
  });

  it("keeps within a lower time limit the service states, and sends the call again within it", async () => {
    const server = await scriptedServer((_n, seen, response) => {
      const asked = (JSON.parse(seen.body) as { time_limit_ms: number }).time_limit_ms;
      if (asked > 1000) {
        response.writeHead(422, { "content-type": "application/json" });
        response.end(JSON.stringify({ detail: [{ type: "time_limit_too_large", loc: ["body", "time_limit_ms"],
          msg: `time_limit_ms is ${asked}; at most 1000 is allowed` }] }));
        return;
      }
      answerJson(response, SOLVED);
    });
    try {
      const client = new RummySolver({ baseUrl: server.url });
      assert.equal((await client.solveHand(HAND, { deadlineMs: 4000 })).deadwood_points, 33);
      assert.equal((await client.solveHand(HAND, { deadlineMs: 4000 })).deadwood_points, 33);
      const asked = server.seen.map((s) => (JSON.parse(s.body) as { time_limit_ms: number }).time_limit_ms);
      assert.equal(asked.length, 3); // the first call learns the limit, the second keeps to it
      assert.ok((asked[0] ?? 0) > 1000 && asked.slice(1).every((ms) => ms === 1000), String(asked));
    } finally {
      await server.close();
    }
  });

  it("takes Infinity as no deadline and refuses a deadline that is not a number of milliseconds", async () => {
    const server = await scriptedServer((_n, _seen, response) => answerJson(response, SOLVED));
    try {
      const client = new RummySolver({ baseUrl: server.url });
      assert.equal((await client.solveHand(HAND, { deadlineMs: Infinity })).deadwood_points, 33);
      assert.equal(JSON.parse(server.seen[0]?.body ?? "{}").time_limit_ms, undefined);
      await assert.rejects(client.solveHand(HAND, { deadlineMs: Number.NaN }), RangeError);
      await assert.rejects(client.solveHand(HAND, { deadlineMs: -1 }), RangeError);
    } finally {
      await server.close();
    }
  });

  it("makes a body that is not the error shape an http_error", async () => {
    const server = await scriptedServer((_n, _seen, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html>bad gateway</html>");
    });
    try {
      const client = new RummySolver({ baseUrl: server.url, retry: false });
      const error = await client.solveHand(HAND).catch((caught: unknown) => caught);
      assert.ok(error instanceof RummySolverError);
      assert.equal(error.status, 502);
      assert.equal(error.type, "http_error");
    } finally {
      await server.close();
    }
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address !== null ? address.port : 1;
}

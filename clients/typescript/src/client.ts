/**
 * The client: one method per operation of the service, over openapi-fetch
 * with the types generated from openapi.json. Every call may take a deadline
 * (sent as the body's `time_limit_ms` and enforced with an `AbortSignal`), is
 * retried on 503/429 as `Retry-After` says, and fails with a
 * `RummySolverError` carrying the service's error items.
 */

import createClient, { type Client } from "openapi-fetch";

import { DeadlineExceededError, type ErrorItem, RummySolverError } from "./errors.js";
import { TIME_LIMIT_MAX_MS } from "./generated/constants.js";
import type { paths } from "./generated/openapi.js";
import type * as api from "./generated/openapi.js";
import { MAX_TIMER_MS, type RetryOptions, withRetries } from "./retry.js";

export interface RummySolverOptions {
  /** Where the service is: `http://127.0.0.1:8000`, `https://rummy.example.com`. */
  readonly baseUrl: string;
  /** An API key, sent as `Authorization: Bearer KEY` (when the service has keys). */
  readonly apiKey?: string | undefined;
  /** Headers for every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use (default: the global one: browsers, Node 18+). */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Retries of every call (default: 3 tries within 10 s); false: none. */
  readonly retry?: RetryOptions | false;
  /**
   * Of a call's deadline, what is kept for the way back: the body asks for
   * `time_limit_ms` = what is left of the deadline less this (default 150: the
   * service answers within `time_limit_ms` + 100 ms, plus the network).
   */
  readonly deadlineMarginMs?: number;
}

export interface CallOptions {
  /**
   * The call's deadline in milliseconds, retries included: the request's
   * `time_limit_ms` becomes what is left of it less the margin (at most the
   * operation's maximum, never more than the body's own), and the request is
   * aborted when it passes (`DeadlineExceededError`).
   */
  readonly deadlineMs?: number | undefined;
  /** Cancels the call (a player left the table): the call rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Sent as `X-Request-ID` (letters, digits, `._:-`, at most 128), the same on every retry; default: a fresh UUID. */
  readonly requestId?: string | undefined;
  /** Retries of this call (default: the client's). */
  readonly retry?: RetryOptions | false | undefined;
  /** Headers for this call. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** The paths of the operations that take a JSON body. */
export type JsonPath = {
  [P in keyof paths]: paths[P] extends { post: { requestBody: { content: { "application/json": unknown } } } }
    ? P : never;
}[keyof paths];

/** The request body of a JSON operation. */
export type RequestOf<P extends JsonPath> = paths[P]["post"]["requestBody"]["content"]["application/json"];

/** The success answer of a JSON operation. */
export type ResponseOf<P extends JsonPath> =
  paths[P]["post"]["responses"][200]["content"]["application/json"];

/** The request body each operation id takes: a line of `solveStream` (and of `rummy-solver bulk`). */
export interface LineBodies {
  solve_hand: api.SolveRequest;
  validate_hand: api.ValidateRequest;
  gin_knock: api.KnockRequest;
  gin_score: api.GinScoreRequest;
  hint_discard: api.DiscardHintRequest;
  hint_draw: api.DrawHintRequest;
  hint_layoffs: api.LayoffsRequest;
  hint_pile: api.PileHintRequest;
  score_round: api.RoundScoreRequest;
  advise: api.AdviseRequest;
  review_game: api.ReviewRequest;
  review_openspiel: api.OpenSpielReviewRequest;
}

/** One line of a stream: an operation's body with its `op` (none: a solve) and an optional `id`, echoed. */
export type StreamLine =
  | { [Op in keyof LineBodies]: LineBodies[Op] & { op: Op; id?: string | number | null } }[keyof LineBodies]
  | (api.SolveRequest & { op?: undefined; id?: string | number | null });

/** One answer line: the operation's answer (less `elapsed_ms`), or the line's error. */
export type StreamAnswer =
  | { id: string | number | null; result: Record<string, unknown> }
  | { id: string | number | null; line: number | null; error: ErrorItem };

type Sent = { data?: unknown; error?: unknown; response: Response };
type Send = (init: { signal: AbortSignal; headers: Record<string, string>; remainingMs?: number }) => Promise<Sent>;
type UntypedCall = (path: string, init: Record<string, unknown>) => Promise<Sent>;

const DEFAULT_MARGIN_MS = 150;

export class RummySolver {
  /** The generated openapi-fetch client, for anything the methods do not cover. */
  readonly raw: Client<paths>;
  private readonly retry: RetryOptions | false;
  private readonly marginMs: number;
  /** The most `time_limit_ms` each path takes on this service, where it said less than openapi.json. */
  private readonly timeLimitMax: Record<string, number> = {};

  constructor(options: RummySolverOptions) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.apiKey !== undefined) {
      headers["Authorization"] = `Bearer ${options.apiKey}`;
    }
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    this.retry = options.retry ?? {};
    this.marginMs = options.deadlineMarginMs ?? DEFAULT_MARGIN_MS;
  }

  /** `POST /v1/solve`: the optimal melds of one hand. */
  solveHand(body: api.SolveRequest, options?: CallOptions): Promise<api.SolveResponse> {
    return this.post("/v1/solve", body, options);
  }

  /** `POST /v1/solve/batch`: up to 1,000 hands; a bad item gets an error in its slot. */
  solveBatch(body: api.BatchRequest, options?: CallOptions): Promise<api.BatchResponse> {
    return this.post("/v1/solve/batch", body, options);
  }

  /** `POST /v1/validate`: every problem of a declared arrangement, and its points. */
  validateHand(body: api.ValidateRequest, options?: CallOptions): Promise<api.ValidateResponse> {
    return this.post("/v1/validate", body, options);
  }

  /** `POST /v1/gin/knock`: may this gin hand knock? every knocking discard. */
  ginKnock(body: api.KnockRequest, options?: CallOptions): Promise<api.KnockResponse> {
    return this.post("/v1/gin/knock", body, options);
  }

  /** `POST /v1/gin/score`: score a knock, layoffs and the knocker's best arrangement included. */
  ginScore(body: api.GinScoreRequest, options?: CallOptions): Promise<api.GinScoreResponse> {
    return this.post("/v1/gin/score", body, options);
  }

  /** `POST /v1/hints/discard`: every discard ranked, ties grouped. */
  hintDiscard(body: api.DiscardHintRequest, options?: CallOptions): Promise<api.DiscardHintResponse> {
    return this.post("/v1/hints/discard", body, options);
  }

  /** `POST /v1/hints/draw`: take the discard or draw blind (exact expectation). */
  hintDraw(body: api.DrawHintRequest, options?: CallOptions): Promise<api.DrawHintResponse> {
    return this.post("/v1/hints/draw", body, options);
  }

  /** `POST /v1/layoffs`: which cards extend which table melds, and the best play. */
  hintLayoffs(body: api.LayoffsRequest, options?: CallOptions): Promise<api.LayoffsResponse> {
    return this.post("/v1/layoffs", body, options);
  }

  /** `POST /v1/hints/pile`: rummy500/rommy: what taking the pile to each depth is worth. */
  hintPile(body: api.PileHintRequest, options?: CallOptions): Promise<api.PileHintResponse> {
    return this.post("/v1/hints/pile", body, options);
  }

  /** `POST /v1/score/round`: the points of a finished round for every player. */
  scoreRound(body: api.RoundScoreRequest, options?: CallOptions): Promise<api.RoundScoreResponse> {
    return this.post("/v1/score/round", body, options);
  }

  /** `POST /v1/advise`: the public state of a gin or Indian rummy hand -> every legal move, ranked. */
  advise(body: api.AdviseRequest, options?: CallOptions): Promise<api.AdviceResponse> {
    return this.post("/v1/advise", body, options);
  }

  /** `POST /v1/review`: a recorded game -> every decision against the advisor's best, and each player's figures. */
  reviewGame(body: api.ReviewRequest, options?: CallOptions): Promise<api.ReviewResponse> {
    return this.post("/v1/review", body, options);
  }

  /** `POST /v1/review/openspiel`: an OpenSpiel gin_rummy action history -> the same review as its record's. */
  reviewOpenspiel(body: api.OpenSpielReviewRequest, options?: CallOptions): Promise<api.ReviewResponse> {
    return this.post("/v1/review/openspiel", body, options);
  }

  /** `GET /v1/variants`: the presets, every knob with its value and meaning. */
  listVariants(options?: CallOptions): Promise<api.VariantList> {
    return this.run((init) => this.raw.GET("/v1/variants", init), options);
  }

  /** `GET /v1/variants/{name}`: one preset. */
  getVariant(name: string, options?: CallOptions): Promise<api.VariantInfo> {
    return this.run((init) => this.raw.GET("/v1/variants/{name}", { ...init, params: { path: { name } } }),
      options);
  }

  /** `GET /version`: package, OR-Tools and Python versions. */
  version(options?: CallOptions): Promise<api.VersionResponse> {
    return this.run((init) => this.raw.GET("/version", init), options);
  }

  /** `GET /readyz`: whether the service can solve (a 503 `not_ready` when not). */
  readyz(options?: CallOptions): Promise<api.ReadyResponse> {
    return this.run((init) => this.raw.GET("/readyz", init), options);
  }

  /**
   * Any JSON operation by its path, typed by it: `client.post("/v1/solve", body)`.
   * The methods above are this with a name.
   */
  post<P extends JsonPath>(path: P, body: RequestOf<P>, options: CallOptions = {}): Promise<ResponseOf<P>> {
    const post = this.raw.POST as unknown as UntypedCall;
    return this.run(async (init) => {
      for (;;) {
        const maximum = this.timeLimitMax[path] ?? (TIME_LIMIT_MAX_MS as Readonly<Record<string, number>>)[path];
        const sent = maximum === undefined || init.remainingMs === undefined ? body
          : withTimeLimit(body, Math.min(maximum, Math.floor(init.remainingMs - this.marginMs)));
        const answer = await post(path, { body: sent, signal: init.signal, headers: init.headers });
        // A service whose operator set a lower limit than openapi.json's says so in
        // its 422: the call is sent once more within it, and the limit kept for the path.
        const lower = answer.response.status === 422 && sent !== body ? statedLimit(answer.error) : undefined;
        if (lower === undefined || lower >= (maximum ?? Infinity)) {
          return answer;
        }
        this.timeLimitMax[path] = lower;
      }
    }, options) as Promise<ResponseOf<P>>;
  }

  /**
   * `POST /v1/solve/stream`: many requests in one call (NDJSON), an answer per
   * line in input order, yielded as each arrives. A line's problem is an
   * error answer, not an exception; only a refused stream (503, 429 ...) throws.
   * A deadline covers the whole stream.
   */
  async *solveStream(lines: Iterable<StreamLine>, options: CallOptions = {}): AsyncGenerator<StreamAnswer> {
    const texts = Array.from(lines, (line) => JSON.stringify(line));
    const count = texts.length;
    const body = texts.map((text) => `${text}\n`).join(""); // no lines: an empty body, no answers
    const post = this.raw.POST as unknown as UntypedCall;
    // The deadline covers reading the answer lines too, so it is the stream's own.
    const { deadlineMs: given, ...rest } = options;
    const deadlineMs = checkedDeadline(given);
    const requestId = options.requestId ?? newRequestId(); // the stream's, for its errors too
    const deadline = deadlineMs === undefined ? undefined : new Timeout(deadlineMs);
    const signals = combine(options.signal, deadline?.signal);
    try {
      const stream = await this.run<ReadableStream<Uint8Array>>((init) => post("/v1/solve/stream", {
        body,
        bodySerializer: (text: string) => text,
        parseAs: "stream",
        signal: signals.signal, // not the try's: the body is read after run() returns
        headers: { ...init.headers, "Content-Type": "application/x-ndjson" },
      }), { ...rest, requestId, signal: signals.signal }, deadline?.endsAt);
      const decoder = new TextDecoder();
      let pending = "";
      let answered = 0;
      let last: StreamAnswer | undefined;
      const read = (text: string): StreamAnswer => {
        answered += 1;
        try {
          last = JSON.parse(text) as StreamAnswer;
        } catch (error) {
          throw unreadableAnswer(`answer line ${answered} that is not JSON (${(error as Error).message})`,
            requestId);
        }
        return last;
      };
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        let from = pending.length; // only the new text can hold the next newline
        pending += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = pending.indexOf("\n", from)) >= 0) {
          const line = pending.slice(0, end).trim();
          pending = pending.slice(end + 1);
          from = 0;
          if (line !== "") {
            yield read(line);
          }
        }
      }
      if (pending.trim() !== "") {
        yield read(pending);
      }
      const ended = last !== undefined && "error" in last && STREAM_ENDINGS.has(last.error.type);
      if (answered < count && !ended) {
        throw unreadableAnswer(`${answered} answer lines for the ${count} lines sent (the stream was cut)`,
          requestId);
      }
    } catch (error) {
      if (deadline?.signal.aborted && !options.signal?.aborted && deadlineMs !== undefined) {
        throw new DeadlineExceededError(deadlineMs);
      }
      throw error;
    } finally {
      deadline?.clear();
      signals.release();
    }
  }

  /** One call: its deadline, its signal, its request id and its retries. */
  private async run<T>(send: Send, options: CallOptions = {}, retriesUntil?: number): Promise<T> {
    const deadlineMs = checkedDeadline(options.deadlineMs);
    const deadlineAt = deadlineMs === undefined ? undefined : performance.now() + deadlineMs;
    const headers: Record<string, string> = { ...options.headers };
    headers["X-Request-ID"] = options.requestId ?? newRequestId();
    const attempt = async (): Promise<T> => {
      const remainingMs = deadlineAt === undefined ? undefined : deadlineAt - performance.now();
      if (deadlineMs !== undefined && remainingMs !== undefined && remainingMs <= 0) {
        throw new DeadlineExceededError(deadlineMs);
      }
      const deadline = remainingMs === undefined ? undefined : new Timeout(remainingMs);
      const signals = combine(options.signal, deadline?.signal);
      try {
        let sent: Sent;
        try {
          sent = await send({
            signal: signals.signal,
            headers,
            ...(remainingMs === undefined ? {} : { remainingMs }),
          });
        } catch (error) {
          if (error instanceof SyntaxError) { // a success answer's body that is not JSON
            throw unreadableAnswer(`a body that is not JSON (${error.message})`, headers["X-Request-ID"]);
          }
          throw error;
        }
        if (!sent.response.ok) {
          throw RummySolverError.fromResponse(sent.response, sent.error);
        }
        if (!(sent.data instanceof ReadableStream) && (typeof sent.data !== "object" || sent.data === null)) {
          throw unreadableAnswer(`${sent.response.status} without a JSON object`, headers["X-Request-ID"],
            sent.response.status);
        }
        return sent.data as T;
      } catch (error) {
        if (deadline?.signal.aborted && !options.signal?.aborted && deadlineMs !== undefined) {
          throw new DeadlineExceededError(deadlineMs);
        }
        throw error;
      } finally {
        deadline?.clear();
        signals.release();
      }
    };
    const retry = options.retry ?? this.retry;
    if (retry === false) {
      return attempt();
    }
    return withRetries(attempt, retry, { signal: options.signal, deadlineAt: deadlineAt ?? retriesUntil });
  }
}

/** A fresh request id (crypto.randomUUID is missing outside secure browser contexts and in Node 18). */
function newRequestId(): string {
  const crypto = globalThis.crypto as Crypto | undefined;
  if (typeof crypto?.randomUUID === "function") {
    return crypto.randomUUID();
  }
  return Array.from({ length: 4 }, () => Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0"))
    .join("");
}

/** The error lines with which the service ends a stream early (the lines after them are not answered). */
const STREAM_ENDINGS = new Set(["stream_time_exceeded", "stream_too_large", "unavailable"]);

/** A call's deadline: a non-negative number of milliseconds (Infinity or undefined: none). */
function checkedDeadline(deadlineMs: number | undefined): number | undefined {
  if (deadlineMs === undefined || deadlineMs === Infinity) {
    return undefined;
  }
  if (typeof deadlineMs !== "number" || Number.isNaN(deadlineMs) || deadlineMs < 0) {
    throw new RangeError(`deadlineMs must be a number of milliseconds, 0 or more; got ${String(deadlineMs)}`);
  }
  return deadlineMs;
}

/** The limit a 422 `time_limit_too_large` states ("... at most 1000 ..."), if it is one. */
function statedLimit(body: unknown): number | undefined {
  const item = (body as { detail?: ErrorItem[] } | undefined)?.detail?.[0];
  const match = item?.type === "time_limit_too_large" ? /at most (\d+)/.exec(item.msg) : null;
  return match === null || match[1] === undefined ? undefined : Number(match[1]);
}

/** The error of an answer the client cannot read as the service's (a proxy's page under 200, a cut stream). */
function unreadableAnswer(what: string, requestId: string | undefined, status = 200): RummySolverError {
  return new RummySolverError(status, [{ type: "http_error", loc: [], msg: `the service answered ${what}` }],
    { requestId });
}

function withTimeLimit<B>(body: B, fits: number): B {
  const asked = (body as { time_limit_ms?: number | null }).time_limit_ms;
  const limit = Math.max(1, asked === undefined || asked === null ? fits : Math.min(asked, fits));
  return { ...body, time_limit_ms: limit };
}

/** An AbortSignal that fires after `ms`, and can be cleared. */
class Timeout {
  /** `performance.now()` time it fires at. */
  readonly endsAt: number;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(ms: number) {
    this.endsAt = performance.now() + ms;
    this.timer = setTimeout(() => this.controller.abort(new DOMException("deadline", "TimeoutError")),
      Math.min(ms, MAX_TIMER_MS));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** One signal that aborts when any given one does (AbortSignal.any is newer than some browsers). */
function combine(...given: (AbortSignal | undefined)[]): { signal: AbortSignal; release: () => void } {
  const signals = given.filter((signal): signal is AbortSignal => signal !== undefined);
  const controller = new AbortController();
  const listeners: [AbortSignal, () => void][] = [];
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const listener = (): void => controller.abort(signal.reason);
    signal.addEventListener("abort", listener, { once: true });
    listeners.push([signal, listener]);
  }
  return {
    signal: controller.signal,
    release: () => listeners.forEach(([signal, listener]) => signal.removeEventListener("abort", listener)),
  };
}

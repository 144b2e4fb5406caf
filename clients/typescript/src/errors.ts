/**
 * The errors a call can end with: the service's one error shape as a typed
 * exception, and the caller's own deadline passing.
 */

import { ERROR_CODES, type KnownErrorCode } from "./generated/constants.js";

/**
 * An error `type`: a stable code this client was generated with, or a newer
 * one (the service may add codes within /v1; it never renames or removes one).
 * The `string & {}` keeps editor completion for the known codes.
 */
export type ErrorCode = KnownErrorCode | (string & {});

/** One item of an error answer: what is wrong, where and why. */
export interface ErrorItem {
  /** A stable code: branch on it, never on `msg`. */
  readonly type: ErrorCode;
  /** The path to the offending input: `["body", "hand", 3]`, `["header", "authorization"]`. */
  readonly loc: readonly (string | number)[];
  /** What is wrong and what is allowed, for people (its wording may change). */
  readonly msg: string;
}

/** Whether `code` is one of the stable codes this client was generated with. */
export function isKnownErrorCode(code: string): code is KnownErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/**
 * An HTTP error answer of the service (4xx, 503), or an answer the client cannot
 * read as the service's (a 200 whose body is not the JSON answer, a stream cut
 * short: one `http_error` item): its status, its error items
 * (`{"detail": [{type, loc, msg}]}`), `Retry-After` and `X-Request-ID`.
 */
export class RummySolverError extends Error {
  override readonly name = "RummySolverError";
  /** The HTTP status: 422 bad input, 413 too large, 401 no key, 429 rate limited, 503 busy ... */
  readonly status: number;
  /** Every error item (at least one). */
  readonly items: readonly ErrorItem[];
  /** `Retry-After` in milliseconds when the answer had one (503, 429). */
  readonly retryAfterMs: number | undefined;
  /** The request id the service logged the request under. */
  readonly requestId: string | undefined;

  constructor(status: number, items: readonly ErrorItem[], options: {
    retryAfterMs?: number | undefined;
    requestId?: string | undefined;
  } = {}) {
    const first = items[0];
    const where = first && first.loc.length > 0 ? ` at ${first.loc.join(".")}` : "";
    const more = items.length > 1 ? ` (and ${items.length - 1} more)` : "";
    super(`${status} ${first?.type ?? "http_error"}${where}: ${first?.msg ?? ""}${more}`);
    this.status = status;
    this.items = items;
    this.retryAfterMs = options.retryAfterMs;
    this.requestId = options.requestId;
  }

  /** The first item's code (the service lists the errors it found in order). */
  get type(): ErrorCode {
    return this.items[0]?.type ?? "http_error";
  }

  /** Whether any item has the code `code` (a typo in `code` is a type error). */
  has(code: KnownErrorCode): boolean {
    return this.items.some((item) => item.type === code);
  }

  /**
   * The error of a response that is not a success. `body` is the decoded JSON
   * body when there was one; a body of another shape (a proxy's error page)
   * becomes one `http_error` item.
   */
  static fromResponse(response: Response, body: unknown): RummySolverError {
    return new RummySolverError(response.status, errorItems(body, response), {
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
      requestId: response.headers.get("x-request-id") ?? undefined,
    });
  }
}

/** The caller's deadline for a call (`deadlineMs`, retries included) passed before an answer came. */
export class DeadlineExceededError extends Error {
  override readonly name = "DeadlineExceededError";
  /** The deadline the call was given, in milliseconds. */
  readonly deadlineMs: number;

  constructor(deadlineMs: number) {
    super(`no answer within the call's deadline of ${deadlineMs} ms`);
    this.deadlineMs = deadlineMs;
  }
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110);
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") {
    return undefined;
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    return Number(text) * 1000;
  }
  // Only the three date forms HTTP allows: Date.parse alone reads "1.5", "-5" or
  // "abc 1" as dates long past, which would mean "retry at once".
  if (!HTTP_DATE.some((form) => form.test(text))) {
    return undefined;
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/, // IMF-fixdate
  /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/, // RFC 850
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/, // asctime
];

function errorItems(body: unknown, response: Response): ErrorItem[] {
  const detail = (body as { detail?: unknown } | null | undefined)?.detail;
  if (Array.isArray(detail) && detail.length > 0 && detail.every(isErrorItem)) {
    return detail;
  }
  const text = typeof body === "string" ? body.slice(0, 200) : "";
  return [{ type: "http_error", loc: [], msg: `${response.status} ${response.statusText} ${text}`.trim() }];
}

function isErrorItem(value: unknown): value is ErrorItem {
  const item = value as Partial<ErrorItem> | null;
  return typeof item === "object" && item !== null && typeof item.type === "string"
    && typeof item.msg === "string" && Array.isArray(item.loc);
}

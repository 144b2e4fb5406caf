/**
 * Retrying a call the service could not take now (503 `overloaded`, 429
 * `rate_limited`): it waits what `Retry-After` says, a bounded number of
 * times, within a total time budget. Every operation is a pure function of
 * its body, so sending the same request again is always safe.
 */

import { RummySolverError } from "./errors.js";

export interface RetryOptions {
  /** Tries in all, the first included (default 3; 1: no retry). */
  readonly attempts?: number;
  /**
   * Milliseconds from the first try after which no retry starts and no wait
   * ends (default 10 000); a try itself is bounded by the call's `deadlineMs`.
   */
  readonly budgetMs?: number;
  /** HTTP statuses worth another try (default 429 and 503). */
  readonly statuses?: readonly number[];
  /** Also retry when the request did not reach the service (fetch's TypeError; default true). */
  readonly networkErrors?: boolean;
  /** The first wait when the answer has no `Retry-After` (default 200 ms; doubled each time, jittered). */
  readonly baseDelayMs?: number;
  /** The longest such wait (default 2 000 ms; a `Retry-After` is honoured as given). */
  readonly maxDelayMs?: number;
  /** Called before each wait (for logs and metrics). */
  readonly onRetry?: (retry: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** What stops retries early besides the options: the caller's signal and deadline. */
export interface RetryControl {
  readonly signal?: AbortSignal | undefined;
  /** `performance.now()` time after which no try starts and no wait ends. */
  readonly deadlineAt?: number | undefined;
}

/** The longest wait a timer holds (setTimeout fires at once past 2^31 - 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const DEFAULT_RETRY: Required<Omit<RetryOptions, "onRetry">> = {
  attempts: 3,
  budgetMs: 10_000,
  statuses: [429, 503],
  networkErrors: true,
  baseDelayMs: 200,
  maxDelayMs: 2_000,
};

/**
 * `call(attempt)` (attempt from 1), tried again while it fails with a
 * retryable error, there are tries left and the wait fits in the budget and
 * the deadline; otherwise the last error is thrown as it was. A wait that
 * would end past the budget is not started: the caller gets the 503 (with its
 * `retryAfterMs`) at once and can decide.
 */
export async function withRetries<T>(
  call: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
  control: RetryControl = {},
): Promise<T> {
  const settings = { ...DEFAULT_RETRY, ...options };
  const started = performance.now();
  const giveUpAt = Math.min(started + settings.budgetMs, control.deadlineAt ?? Infinity);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call(attempt);
    } catch (error) {
      if (attempt >= settings.attempts || control.signal?.aborted || !retryable(error, settings)) {
        throw error;
      }
      const delayMs = delayBefore(attempt, error, settings);
      if (performance.now() + delayMs >= giveUpAt) {
        throw error;
      }
      settings.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, control.signal);
    }
  }
}

function retryable(error: unknown, settings: typeof DEFAULT_RETRY): boolean {
  if (error instanceof RummySolverError) {
    return settings.statuses.includes(error.status);
  }
  // fetch rejects with a TypeError when the request never got an answer
  // (connection refused or reset); aborts and deadlines are other errors. A
  // TypeError of the caller's own making (a header value with a newline, a
  // body JSON cannot hold) is not retried: sending it again fails alike.
  return settings.networkErrors && error instanceof TypeError && isNetworkError(error);
}

/** Whether a fetch TypeError says the request never got an answer (Node gives the socket's error as its cause; browsers say so in words). */
function isNetworkError(error: TypeError): boolean {
  return error.cause !== undefined || /fetch|network|load failed/i.test(error.message);
}

function delayBefore(attempt: number, error: unknown, settings: typeof DEFAULT_RETRY): number {
  if (error instanceof RummySolverError && error.retryAfterMs !== undefined) {
    return error.retryAfterMs;
  }
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.min(ms, MAX_TIMER_MS));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

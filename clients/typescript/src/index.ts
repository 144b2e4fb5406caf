/**
 * The TypeScript client of rummy-solver. `RummySolver` calls the service;
 * every request and answer type is generated from openapi.json
 * (`src/generated/openapi.ts`, `npm run generate`).
 */

export {
  type CallOptions,
  type JsonPath,
  type LineBodies,
  type RequestOf,
  type ResponseOf,
  RummySolver,
  type RummySolverOptions,
  type StreamAnswer,
  type StreamLine,
} from "./client.js";
export {
  DeadlineExceededError,
  type ErrorCode,
  type ErrorItem,
  isKnownErrorCode,
  parseRetryAfter,
  RummySolverError,
} from "./errors.js";
export {
  ERROR_CODES,
  type FamilyAction,
  type FamilyMove,
  type FamilyPhase,
  GAME_WORDS,
  type GameFamily,
  type KnownErrorCode,
  TIME_LIMIT_MAX_MS,
} from "./generated/constants.js";
export type * from "./generated/openapi.js";
export { DEFAULT_RETRY, type RetryControl, type RetryOptions, withRetries } from "./retry.js";

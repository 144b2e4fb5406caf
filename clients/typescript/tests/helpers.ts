/** What the tests share: the live service's URL and a scripted local HTTP server. */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The live service the Python test started (RUMMY_SOLVER_URL), or undefined: those tests skip. */
export const SERVICE_URL = process.env["RUMMY_SOLVER_URL"];
export const NO_SERVICE = SERVICE_URL === undefined ? "RUMMY_SOLVER_URL is not set (no live service)" : false;
/** Its API key, when it has keys (RUMMY_SOLVER_API_KEY). */
export const API_KEY = process.env["RUMMY_SOLVER_API_KEY"];
/** A key of it limited to one request a minute (RUMMY_SOLVER_LIMITED_KEY). */
export const LIMITED_KEY = process.env["RUMMY_SOLVER_LIMITED_KEY"];

/** One request the scripted server saw. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  readonly at: number;
}

/** What the scripted server answers to its n-th request (from 0). */
export type Script = (n: number, request: Seen, response: ServerResponse) => void;

/** A local HTTP server answering as `script` says, recording every request. */
export async function scriptedServer(script: Script): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const one: Seen = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      seen.push(one);
      script(seen.length - 1, one, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Answers with the service's error shape. */
export function answerError(response: ServerResponse, status: number, type: string,
  headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify({ detail: [{ type, loc: ["body"], msg: `scripted ${type}` }] }));
}

/** Answers 200 with `body` as JSON. */
export function answerJson(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

// The JSON API as the pages call it: POST a body, get the answer or an ApiError carrying the
// service's {type, loc, msg} items, and those items in words.  The game pages (gin.js,
// indian.js) use `api`; the playground (play.js), which cancels superseded calls, makes its own
// fetch and reads the answer with `answer` and `unreachable`.
// A classic script: it defines `RummyTableApi` (it needs cards.js for the suit symbols).
"use strict";

(() => {
  const { symbolize } = window.RummyCards;

  class ApiError extends Error {
    constructor(status, detail) {
      super(detail.map((d) => d.msg).join("; "));
      this.status = status;
      this.detail = detail;
    }
  }

  /** The error of a call the service never answered. */
  function unreachable() {
    return new ApiError(0, [{ type: "network", loc: [], msg: "the service did not answer; is it running?" }]);
  }

  /** POST a JSON body to a path relative to the site root (the game pages live at /play/...). */
  async function api(path, body) {
    let response;
    try {
      response = await fetch(`../${path}`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
    } catch {
      throw unreachable();
    }
    return answer(response);
  }

  /** The JSON body of `response`, or an ApiError with the service's items (a 503 says when to
   * try again, from Retry-After). */
  async function answer(response) {
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      let detail = data && Array.isArray(data.detail) ? data.detail : null;
      if (!detail) detail = [{ type: "http", loc: [], msg: `HTTP ${response.status}` }];
      const after = response.headers.get("Retry-After");
      if (response.status === 503 && after) {
        detail = detail.map((d) => ({ ...d, msg: `${d.msg} (try again in ${after} s)` }));
      }
      throw new ApiError(response.status, detail);
    }
    return data;
  }

  /** "Hint failed (HTTP 503): unavailable at body: ..." for an error of the call `what`. */
  function describeError(err, what) {
    if (!(err instanceof ApiError)) return `${what} failed: ${err.message || err}`;
    const status = err.status ? `HTTP ${err.status}` : "no answer";
    const items = err.detail.map((d) => {
      const loc = Array.isArray(d.loc) && d.loc.length ? ` at ${d.loc.join(".")}` : "";
      return `${d.type ? d.type + loc + ": " : ""}${symbolize(d.msg)}`;
    });
    return `${what} failed (${status}): ${items.join("; ")}`;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  window.RummyTableApi = Object.freeze({ ApiError, answer, api, describeError, sleep, unreachable });
})();

// The JSON API as the pages call it: POST a body, get the answer or an ApiError carrying the
// service's {type, loc, msg} items, and those items in words.  The game pages (gin.js,
// indian.js) use `api`; the playground (play.js), which cancels superseded calls, makes its own
// fetch with `headers`, waits as long (`ANSWER_WAIT_MS`) and reads the answer with `answer` and
// `unreachable`.
//
// API keys: every call carries X-Playground: 1, so that a service with keys on lets the pages'
// own calls through its playground lane (api/server/playground_lane.py: no key needed, a small
// rate per address).  Where the service answers 401 (the lane is off, or the call is not the
// pages'), or 429 to a call without a key (the lane's rate is used up: a key has a rate of its
// own), the page offers a box for a key: it is kept in this tab's session storage only and
// sent as Authorization: Bearer with every call after.
// A classic script: it defines `RummyTableApi` (it needs cards.js for the suit symbols).
"use strict";

(() => {
  const { symbolize, element } = window.RummyCards;
  const KEY_ITEM = "rummy-solver-api-key"; // sessionStorage: this tab only, gone when it closes
  const MARKER = ["X-Playground", "1"]; // api/pages/calls.py

  /** The key pasted into this tab, or null. */
  function storedKey() {
    try {
      return sessionStorage.getItem(KEY_ITEM) || null;
    } catch {
      return null; // storage refused (a privacy setting): no key
    }
  }

  /** The headers of a call (with a JSON body when `json`): the pages' marker, and the key
   * pasted into this tab as Authorization when there is one. */
  function headers(json = true) {
    const out = { [MARKER[0]]: MARKER[1] };
    if (json) out["Content-Type"] = "application/json";
    const key = storedKey();
    if (key) out.Authorization = `Bearer ${key}`;
    return out;
  }

  /** After a 401, or a 429 to a call without a key (`limited`): a box at the top of the page
   * to paste a key (once per page).  Saving it keeps it in session storage and reloads the
   * page, whose state lives in its address; "Forget the key" (shown while the tab holds one)
   * drops it and reloads. */
  function offerKey(message, limited = false) {
    let form = document.getElementById("api-key-form");
    if (!form) {
      form = element("form", "api-key-form");
      form.id = "api-key-form";
      form.dataset.testid = "api-key-form";
      const text = element("p", "api-key-text");
      text.id = "api-key-text";
      const label = element("label", null, "API key");
      label.htmlFor = "api-key";
      const input = element("input");
      input.id = "api-key";
      input.type = "password";
      input.autocomplete = "off";
      input.required = true;
      input.dataset.testid = "api-key-input";
      const save = element("button", "primary", "Use this key");
      save.type = "submit";
      save.dataset.testid = "api-key-save";
      // A refused key would go with every call of the tab: let it be dropped too, so the
      // calls go without one again (the playground's own lane serves those).
      const forget = element("button", null, "Forget the key");
      forget.type = "button";
      forget.id = "api-key-forget";
      forget.dataset.testid = "api-key-forget";
      forget.hidden = !storedKey();
      forget.addEventListener("click", () => {
        try {
          sessionStorage.removeItem(KEY_ITEM);
        } catch {
          return;
        }
        location.reload();
      });
      form.append(text, label, input, save, forget);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        try {
          sessionStorage.setItem(KEY_ITEM, input.value.trim());
        } catch {
          return;
        }
        location.reload();
      });
      document.body.prepend(form);
    }
    const known = limited ? "The calls without an API key are used up for now"
      : storedKey() ? "The key this tab holds was refused" : "This service needs an API key for these calls";
    form.querySelector("#api-key-text").textContent = `${known} (${symbolize(message)}). Paste a key: it stays in `
      + "this tab only (session storage) and goes with each call as Authorization.";
  }

  class ApiError extends Error {
    constructor(status, detail) {
      super(detail.map((d) => d.msg).join("; "));
      this.status = status;
      this.detail = detail;
    }
  }

  /** The error of a call the service never answered (within `waitedMs`, when given). */
  function unreachable(waitedMs = null) {
    const within = waitedMs === null ? "" : ` within ${waitedMs / 1000} s`;
    return new ApiError(0, [{ type: "network", loc: [], msg: `the service did not answer${within}; is it running?` }]);
  }

  /** How long a page waits for an answer: the service answers by its request budget (5 s
   * unless the operator sets RUMMY_SOLVER_REQUEST_BUDGET_MS), so one that has not answered
   * by then is stopped or cut off, and the page says so with Try again. */
  const ANSWER_WAIT_MS = 30_000;

  /** POST a JSON body to a path relative to the site root (the game pages live at /play/...). */
  async function api(path, body) {
    let response;
    try {
      response = await fetch(`../${path}`, {
        method: "POST", headers: headers(), body: JSON.stringify(body),
        signal: AbortSignal.timeout(ANSWER_WAIT_MS),
      });
    } catch (err) {
      throw unreachable(err && err.name === "TimeoutError" ? ANSWER_WAIT_MS : null);
    }
    return answer(response);
  }

  /** The JSON body of `response`, or an ApiError with the service's items (a 503 or 429 says
   * when to try again, from Retry-After; a 401 offers the box for a key).  A success whose body
   * is no JSON object is not the service's answer (a proxy's or portal's page in its place): an
   * ApiError too, which the page shows with Try again instead of failing on it. */
  async function answer(response) {
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (response.ok && (data === null || typeof data !== "object")) {
      const type = response.headers.get("Content-Type") || "no content type";
      throw new ApiError(response.status, [{
        type: "invalid_answer", loc: [],
        msg: `the answer is not the service's JSON (${type}): is something else answering in its place?`,
      }]);
    }
    if (!response.ok) {
      let detail = data && Array.isArray(data.detail) ? data.detail : null;
      if (!detail) detail = [{ type: "http", loc: [], msg: `HTTP ${response.status}` }];
      const after = response.headers.get("Retry-After");
      if ((response.status === 503 || response.status === 429) && after) {
        // the service's own words may say when already ("retry in 56 s"): not twice
        detail = detail.map((d) => (/\b(retry|try again) in \d+ s\b/.test(d.msg) ? d
          : { ...d, msg: `${d.msg} (try again in ${after} s)` }));
      }
      const words = detail.map((d) => d.msg).join("; ");
      if (response.status === 401) offerKey(words);
      // Without a key, a 429 is the playground lane's rate per address; a key has its own.
      else if (response.status === 429 && !storedKey()) offerKey(words, true);
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

  window.RummyTableApi = Object.freeze({
    ANSWER_WAIT_MS, ApiError, answer, api, describeError, headers, sleep, unreachable,
  });
})();

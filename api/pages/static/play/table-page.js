// What the game pages (gin.js, indian.js) share around their own turn loops: the error panel and
// its Try again button, the settings every table keeps in the query string (seed, bot and hint
// levels, bot delay), the Hint panel's request to POST /v1/advise, and the controls every table
// has (Hint, the two levels, a new game from the typed seed or a random one).
// A classic script: it defines `RummyTablePage` (it needs table-api.js).
"use strict";

(() => {
  const { api, describeError } = window.RummyTableApi;
  const $ = (id) => document.getElementById(id);

  let lastFocus = null; // the element that last took the focus (a redraw may remove it)
  document.addEventListener("focusin", (event) => { lastFocus = event.target; });

  /** The human's turn is drawn: when the move just made took the focus with it (its button
   * drawn away, the focus left on the page's body), the first move offered takes it, so that a
   * keyboard player goes on from the table instead of from the top of the page. */
  function focusTurn() {
    const at = document.activeElement;
    if ((at && at !== document.body) || !lastFocus || lastFocus.isConnected) return; // not taken
    const first = $("table").querySelector("[data-testid=move]:enabled, [data-testid=hand-card]:enabled");
    if (first) first.focus({ preventScroll: true });
  }

  /** The table's error panel: `show(message, again)` (with Try again when `again` is given)
   * marks the table as stopped and calls `onShow`; `refuse(message)` says why a click was
   * refused (a seed mistyped, a move not legal now) and leaves the table as it is, its turn
   * still playable; `clear()` hides it. */
  function errorPanel(onShow) {
    let retry = null;
    let stop = null; // the message of the stop shown, while the table is stopped
    const panel = {
      show(message, again) {
        $("error-text").textContent = message;
        $("error").hidden = false;
        retry = again;
        stop = message;
        $("retry").hidden = !again;
        document.body.dataset.turn = "error";
        onShow();
      },
      refuse(message) { // a stop already shown stays, with its Try again
        const stopped = stop !== null && document.body.dataset.turn === "error";
        $("error-text").textContent = stopped ? `${message} ${stop}` : message;
        $("error").hidden = false;
        if (!stopped) $("retry").hidden = true;
      },
      clear() {
        $("error").hidden = true;
        $("error-text").textContent = "";
        retry = null;
        stop = null;
      },
    };
    $("retry").addEventListener("click", () => {
      const again = retry;
      panel.clear();
      if (again) again();
    });
    return panel;
  }

  /** A click handler for a move (a move button, a hand card): `act()` on a single click.  The
   * second click of a double click (its `detail` 2 or more) lands on whatever the first one put
   * under the pointer, the Knock where Take was, and is no move; a key press (detail 0) is. */
  function singleClick(act) {
    return (event) => {
      if (event.detail > 1) return;
      act();
    };
  }

  /** The query parameter `name` as a whole number from `low` to `high`, else null. */
  function numberParam(params, name, low, high) {
    const text = params.get(name);
    if (text === null || !/^\d+$/.test(text)) return null;
    const value = Number(text);
    return value >= low && value <= high ? value : null;
  }

  /** The common settings from the query string `params` into `settings`. */
  function readSettings(params, settings, { seedMax, randomSeed, levels, defaultDelay, maxDelay }) {
    settings.seed = numberParam(params, "seed", 0, seedMax - 1) ?? randomSeed();
    if (levels.includes(params.get("level"))) settings.botLevel = params.get("level");
    if (levels.includes(params.get("hint"))) settings.hintLevel = params.get("hint");
    settings.delay = numberParam(params, "delay", 0, maxDelay) ?? defaultDelay;
  }

  /** The table's link: the seed, the game's own `fields` ([name, value] pairs; a null value is
   * left out), then the levels and a delay other than `defaultDelay`. */
  function shareUrl(settings, fields, defaultDelay) {
    const params = new URLSearchParams();
    params.set("seed", String(settings.seed));
    for (const [name, value] of fields) if (value !== null) params.set(name, value);
    params.set("level", settings.botLevel);
    params.set("hint", settings.hintLevel);
    if (settings.delay !== defaultDelay) params.set("delay", String(settings.delay));
    return `${location.pathname}?${params}`;
  }

  /** Put `url` in the address bar and the Share link, and the seed in its box. */
  function showUrl(url, seed) {
    history.replaceState(null, "", url);
    $("share").href = url;
    $("seed").value = String(seed);
  }

  /** Empty the Hint panel, with `message` as its status. */
  function clearHint(message = "") {
    $("advice").replaceChildren();
    $("advice-ranking").hidden = true;
    $("hint").dataset.state = "empty";
    $("hint").setAttribute("aria-busy", "false");
    $("hint-status").textContent = message;
    $("hint-status").classList.remove("error");
  }

  /** Ask POST /v1/advise for a hint with `body` (at `level`), the panel busy meanwhile; then
   * `show(advice)`, or the error in the panel.  When `current()` turns false (the table moved
   * on), the answer is dropped. */
  async function askHint(body, level, current, show) {
    const panel = $("hint");
    panel.dataset.state = "loading";
    panel.setAttribute("aria-busy", "true");
    $("advice").replaceChildren();
    $("advice-ranking").hidden = true;
    $("hint-status").classList.remove("error");
    $("hint-status").textContent = `Asking the advisor (${level})…`;
    let advice;
    try {
      advice = await api("v1/advise", body);
    } catch (err) {
      if (!current()) return;
      panel.dataset.state = "error";
      panel.setAttribute("aria-busy", "false");
      $("hint-status").textContent = describeError(err, "The hint (POST /v1/advise)");
      $("hint-status").classList.add("error");
      return;
    }
    if (current()) show(advice);
  }

  /** The controls every table has: the Hint button (`hint`), the hint and bot levels (kept in
   * `settings`, then `changed()`), and a new game (`restart(seed)`) from the seed typed in
   * (refused through `refuse`, the table going on, unless a whole number below `seedMax`) or a
   * random one; the new-game buttons are `newId` and `randomId`. */
  function wireControls({ settings, hint, changed, restart, refuse, seedMax, randomSeed, newId, randomId }) {
    $("hint-button").addEventListener("click", hint);
    $("hint-level").value = settings.hintLevel;
    $("bot-level").value = settings.botLevel;
    $("hint-level").addEventListener("change", () => {
      settings.hintLevel = $("hint-level").value;
      changed();
    });
    $("bot-level").addEventListener("change", () => {
      settings.botLevel = $("bot-level").value;
      changed();
    });
    $(newId).addEventListener("click", () => {
      const text = $("seed").value.trim();
      const seed = /^\d+$/.test(text) && Number(text) < seedMax ? Number(text) : null;
      if (seed === null) {
        refuse(`The seed must be a whole number below ${seedMax}.`);
        return;
      }
      restart(seed);
    });
    $(randomId).addEventListener("click", () => restart(randomSeed()));
  }

  window.RummyTablePage = Object.freeze({
    errorPanel, focusTurn, singleClick, numberParam, readSettings, shareUrl, showUrl, clearHint, askHint, wireControls,
  });
})();

// What the game pages (gin.js, indian.js) share around their own turn loops: the error panel and
// its Try again button, the settings every table keeps in the query string (seed, bot and hint
// levels, bot delay), the Hint panel's request to POST /v1/advise, the controls every table
// has (Hint, the two levels, a new game from the typed seed or a random one), and the pieces of
// the turn loop that are the same at both tables: the moves in words, the table's counts, the
// hand's cards and the move buttons, the last moves and the history, a bot's turn, the human's
// turn and its moves, and the outcome box's buttons.  The human sits at seat `HUMAN` (0).
// A classic script: it defines `RummyTablePage` (it needs cards.js, words.js and table-api.js;
// advice-chart.js by the time a hint is shown).
"use strict";

(() => {
  const { cardElement, shortName, sortKey, element, span, cardRow } = window.RummyCards;
  const { api, describeError, sleep } = window.RummyTableApi;
  const W = window.RummyWords;
  const $ = (id) => document.getElementById(id);

  const HUMAN = 0; // the human's seat at every table
  const LEVELS = ["novice", "standard", "expert"]; // the bot's and the Hint's strengths
  const BOT_DELAY_MS = 700; // a bot's move is not shown sooner than this (the `delay` setting)
  const MAX_DELAY_MS = 5000;

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

  /** The turn's line under the table. */
  function setStatus(text) {
    $("status").textContent = text;
  }

  /** The table's error panel: `show(message, again)` (with Try again when `again` is given)
   * marks the table as stopped and calls `onShow` (by default, empties the turn's line); `refuse(message)` says why a click was
   * refused (a seed mistyped, a move not legal now) and leaves the table as it is, its turn
   * still playable; `clear()` hides it. */
  function errorPanel(onShow = () => setStatus("")) {
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

  /** The common settings from the page's query string into `settings`; returns the query's
   * parameters, for the game's own. */
  function readSettings(settings, { seedMax, randomSeed }) {
    const params = new URLSearchParams(location.search);
    settings.seed = numberParam(params, "seed", 0, seedMax - 1) ?? randomSeed();
    if (LEVELS.includes(params.get("level"))) settings.botLevel = params.get("level");
    if (LEVELS.includes(params.get("hint"))) settings.hintLevel = params.get("hint");
    settings.delay = numberParam(params, "delay", 0, MAX_DELAY_MS) ?? BOT_DELAY_MS;
    return params;
  }

  /** The table's link: the seed, the game's own `fields` ([name, value] pairs; a null value is
   * left out), then the levels and a delay other than the default. */
  function shareUrl(settings, fields) {
    const params = new URLSearchParams();
    params.set("seed", String(settings.seed));
    for (const [name, value] of fields) if (value !== null) params.set(name, value);
    params.set("level", settings.botLevel);
    params.set("hint", settings.hintLevel);
    if (settings.delay !== BOT_DELAY_MS) params.set("delay", String(settings.delay));
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

  // ------------------------------------------------------------ the turn loop's pieces

  /** "9♠ 10♠ J♠" for card tokens. */
  function cardWords(tokens) {
    return tokens.map(shortName).join(" ");
  }

  /** Card tokens in the hand's order (by rank, then suit), as a new list. */
  function sorted(tokens) {
    return [...tokens].sort((a, b) => sortKey(a) - sortKey(b));
  }

  /** A move in words, for the player `seat` ("Discard 9♠", "The bot draws from the stock";
   * `seat` null: no subject), `who(seat)` naming the player.  `own(move, card, verb)` words the
   * game's own moves (undefined: the words every table says the same); `verb(you, them)` is the
   * phrase for the human (after "You", lower-cased) or for another player. */
  function moveWords(move, seat, who, own = () => undefined) {
    const card = move.card ? shortName(move.card) : "";
    const subject = seat === null ? "" : who(seat) + " ";
    const lower = (text) => text[0].toLowerCase() + text.slice(1);
    const verb = (you, them) => (seat === null ? you : subject + (seat === HUMAN ? lower(you) : them));
    const words = own(move, card, verb);
    if (words !== undefined) return words;
    switch (move.action) {
      case W.TAKE_DISCARD:
        return verb(`Take ${card} from the pile`, `takes ${card} from the pile`);
      case W.DRAW_STOCK:
        return verb("Draw from the stock", "draws from the stock");
      case W.DISCARD:
        return verb(`Discard ${card}`, `discards ${card}`);
      default:
        return move.action;
    }
  }

  /** A new deal or hand: the last moves, the history and the outcome box emptied. */
  function clearTable() {
    $("last-moves").replaceChildren();
    $("history").replaceChildren();
    $("outcome").hidden = true;
    $("outcome").replaceChildren();
  }

  /** The Hint panel's status while it shows no advice: `text`. */
  function idleHint(text) {
    if ($("hint").dataset.state === "empty") $("hint-status").textContent = text;
  }

  /** Whether the human is to act and its turn is drawn (its moves may be played). */
  function humansTurn(game) {
    return game.toAct === HUMAN && document.body.dataset.turn === "human";
  }

  /** A move of `seat` was just applied (`drawn`: the card the referee drew for it): the table
   * is busy until the next decision is worked out.  Returns the card the human just drew, to
   * mark in its hand, or null. */
  function afterMove(seat, move, drawn) {
    document.body.dataset.turn = "busy";
    const drew = move.action === W.DRAW_STOCK || move.action === W.TAKE_DISCARD;
    return seat === HUMAN && drew ? drawn ?? move.card : null;
  }

  /** The human's turn is ready: `draw()` draws it (its moves and the table), the turn's line
   * says `prompt()`, the Hint button is on and the focus goes on from the table. */
  function yourTurn(draw, prompt) {
    document.body.dataset.turn = "human";
    draw();
    setStatus(prompt());
    $("hint-button").disabled = false;
    focusTurn();
  }

  /** The human plays `move` (a button, a card, or a hint) on its turn: `play(move)` when
   * `legal(move)`, else `refuse` says that `words(move)` is not a legal move now. */
  function playYours(game, move, { legal, words, refuse, play }) {
    if (!humansTurn(game)) return;
    if (!legal(move)) {
      refuse(`${words(move)} is not a legal move now.`);
      return;
    }
    $("hint-button").disabled = true;
    play(move);
  }

  /** A bot's turn: the table shows `name` thinking (no Hint meanwhile) and asks POST
   * /v1/advise with `body`, the answer not shown before `delay` ms, then `play(advice)`.  A
   * failed call is shown by `fail(message, retry)` (the error panel, with Try again), a move the
   * referee refuses by `fail(message, null)`, the bot named `named` in its sentence.  When
   * `current()` turns false (the table moved on), the answer is dropped. */
  async function botTurn({ name, named = name, body, delay, current, play, fail, retry }) {
    document.body.dataset.turn = "bot";
    $("hint-button").disabled = true;
    setStatus(`${name} is thinking…`);
    let advice;
    try {
      [advice] = await Promise.all([api("v1/advise", body), sleep(delay)]);
    } catch (err) {
      if (current()) fail(describeError(err, `${name}'s move (POST /v1/advise)`), retry);
      return;
    }
    if (!current()) return;
    try {
      play(advice);
    } catch (err) {
      fail(`The advisor's move for ${named} is not legal here: ${err.message}`, null);
    }
  }

  /** The table's marks and counts: its phase, who is to act (`toAct`), the number of actions
   * so far, the stock's and the pile's counts, and the pile's top card (`mark(node, card)` adds
   * the game's own marks to it). */
  function renderTable(game, toAct, mark = (node) => node) {
    const table = $("table");
    table.dataset.phase = game.phase;
    table.dataset.toAct = toAct;
    table.dataset.turnCount = String(game.history.length);
    $("stock-count").textContent = String(game.stock.length);
    $("pile-count").textContent = String(game.pile.length);
    $("pile-top").replaceChildren(game.pileTop ? mark(cardElement(game.pileTop), game.pileTop) : span("card empty", ""));
    return table;
  }

  /** A card of the human's hand as a button (`mark(node, card)` adds the game's own marks),
   * marked new when it is the card just drawn (`drawn`). */
  function handCard(card, drawn, mark = (node) => node) {
    const node = mark(cardElement(card, { tag: "button" }), card);
    node.type = "button";
    node.dataset.testid = "hand-card";
    if (card === drawn) node.classList.add("new");
    return node;
  }

  /** A hand card that may not be thrown now: disabled, and when it was just taken from the
   * pile (`justTaken`), marked so with why. */
  function lockCard(node, card, justTaken) {
    node.disabled = true;
    if (justTaken) {
      node.classList.add("taken");
      node.title = `${shortName(card)}: just taken from the pile, it cannot go back this turn`;
    }
  }

  /** The buttons of the human's moves other than discards (null: still being worked out), in
   * #moves: each of the class `kind(move)`, worded `words(move)`, playing `play(move)`.
   * Returns the box. */
  function moveButtons(moves, { kind, words, play }) {
    const box = $("moves");
    box.replaceChildren();
    if (moves === null) return box;
    for (const move of moves) {
      const button = element("button", kind(move), words(move));
      button.type = "button";
      button.dataset.testid = "move";
      button.dataset.move = move.action;
      if (move.card) button.dataset.card = move.card;
      button.addEventListener("click", singleClick(() => play(move)));
      box.append(button);
    }
    return box;
  }

  /** A group of cards under a heading ("Deadwood", "Not melded"). */
  function deadwoodGroup(title, tokens) {
    const dead = element("div", "group deadwood");
    dead.append(element("h3", null, title), cardRow(tokens, { small: true }));
    return dead;
  }

  /** `seat`'s move in the last moves (`text`; the `shown` latest kept) and, unless `entry` is
   * null, the public history's line `entry`. */
  function logMove(seat, text, shown, entry) {
    const last = $("last-moves");
    last.append(element("li", seat === HUMAN ? "you" : "bot", text));
    while (last.children.length > shown) last.firstElementChild.remove();
    if (entry !== null) $("history").append(element("li", null, entry));
  }

  /** The public history's line of the referee's `event`, its player named `name`: "seat 1
   * (the bot): discard 9♠, melds …". */
  function historyEntry(event, name) {
    let words = `seat ${event.player} (${name}): ${event.action}`;
    if (event.card) words += ` ${shortName(event.card)}`;
    if (event.melds) words += `, melds ${event.melds.map(cardWords).join(" · ")}`;
    return words;
  }

  /** The outcome box's headline. */
  function outcomeHead(text) {
    const head = element("p", "outcome-head", text);
    head.dataset.testid = "outcome-text";
    return head;
  }

  /** Show the outcome `box` with its buttons, `review` then `next` (which takes the focus). */
  function showOutcome(box, review, next) {
    const buttons = element("div", "actions outcome-actions");
    buttons.append(review, next);
    box.append(buttons);
    box.hidden = false;
    next.focus({ preventScroll: true });
    box.scrollIntoView({ block: "nearest" });
  }

  /** The advice in the Hint panel (advice-chart.js's ranking; `options` as its renderAdvice's,
   * but for the panel's elements). */
  function renderAdvice(advice, options) {
    window.RummyAdviceChart.renderAdvice(advice, {
      list: $("advice"), ranking: $("advice-ranking"), panel: $("hint"), status: $("hint-status"), ...options,
    });
  }

  window.RummyTablePage = Object.freeze({
    HUMAN, LEVELS, BOT_DELAY_MS, MAX_DELAY_MS,
    errorPanel, focusTurn, singleClick, numberParam, readSettings, shareUrl, showUrl, clearHint, askHint, wireControls,
    setStatus, cardWords, sorted, moveWords, clearTable, idleHint, humansTurn, afterMove, yourTurn, playYours, botTurn,
    renderTable, handCard, lockCard, moveButtons, deadwoodGroup, logMove, historyEntry, outcomeHead, showOutcome,
    renderAdvice,
  });
})();

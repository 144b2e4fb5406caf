// The playground page: reads its state from the query string, calls the JSON API on the
// same origin (relative URLs, so it also works under a path prefix) and draws the answers.
// Plain browser JavaScript: no framework, no build step, nothing from another host.
"use strict";

(() => {
  const {
    RANKS, SUITS, JOKER, parseCard, cardFace, cardElement, cardRow, shortName, symbolize, sortKey,
    span, element,
  } = window.RummyCards;
  const VALUE_LABELS = { min_deadwood: "deadwood", cascade: "points", max_net: "net" };
  const FIELD_NAMES = {
    variant: "Variant", hand: "Hand", wild_rank: "Wild rank", rules: "House rules",
    discard_top: "Discard-pile top", seen: "Other cards out of the stock",
  };
  const KIND_LABELS = { set: "Set", run: "Run", tanala: "Tanala" };
  const TYPING_DELAY_MS = 500;
  const CLICK_DELAY_MS = 150;
  const PHONE = "(max-width: 520px)";

  const $ = (id) => document.getElementById(id);
  const fields = {
    variant: $("variant"), hand: $("hand"), wild: $("wild"), discard: $("discard"),
    rules: $("rules"), top: $("top"), seen: $("seen"),
  };
  // Where an API error about a request field is shown (loc[1] -> message element).
  const errorSlots = {
    variant: "variant-error", hand: "hand-error", wild_rank: "wild-error", rules: "rules-error",
    discard_top: "top-error", seen: "seen-error",
  };
  const inputOf = {
    variant: fields.variant, hand: fields.hand, wild_rank: fields.wild, rules: fields.rules,
    discard_top: fields.top, seen: fields.seen,
  };

  const state = { variants: new Map(), knobDocs: {}, badHandIndex: null };

  // ------------------------------------------------------------------ cards

  function tokenize(text) {
    return String(text || "").replace(/,/g, " ").split(/\s+/).filter(Boolean);
  }

  // --------------------------------------------------------------- variants

  function variantInfo() {
    return state.variants.get(fields.variant.value) || null;
  }

  /** The rules object typed in the box: {value} when valid (null if empty), or {error}. */
  function rulesValue() {
    const text = fields.rules.value.trim();
    if (!text) return { value: null };
    try {
      const value = JSON.parse(text);
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return { error: "rules must be a JSON object of knob values, like {\"knock_limit\": 5}" };
      }
      return { value };
    } catch (err) {
      return { error: `rules are not valid JSON: ${err.message}` };
    }
  }

  /** Knob values after the overrides in the rules box (the preset's when it is invalid). */
  function knobs() {
    const info = variantInfo();
    const base = info ? info.knobs : {};
    const rules = rulesValue().value;
    return rules ? { ...base, ...rules } : base;
  }

  function maxCopies(token) {
    const k = knobs();
    const decks = Number(k.decks) || 1;
    return token === JOKER ? decks * (Number(k.jokers_per_deck) || 0) : decks;
  }

  function describeVariant() {
    const info = variantInfo();
    const note = $("variant-note");
    if (!info) {
      note.textContent = "";
      return;
    }
    const k = info.knobs;
    const parts = [`${k.hand_size} cards`, `${k.decks} deck${k.decks > 1 ? "s" : ""}`];
    if (k.jokers_per_deck) parts.push(`${k.jokers_per_deck * k.decks} joker${k.jokers_per_deck * k.decks > 1 ? "s" : ""}`);
    if (k.cut_joker) parts.push("cut joker: give the wild rank");
    parts.push(`objective ${String(k.objective).replace(/_/g, " ")}`);
    if (info.requirements && info.requirements.length) {
      parts.push("needs " + info.requirements.map((r) => `${r.count} ${String(r.kind).replace(/_/g, " ")}${r.count > 1 ? "s" : ""}`).join(" + "));
    }
    note.textContent = parts.join(" · ");
    showWildField();
    $("knobs-variant").textContent = info.name;
    const body = $("knobs").tBodies[0];
    body.replaceChildren();
    for (const [name, value] of Object.entries(k)) {
      const tr = document.createElement("tr");
      const th = element("th", null, name);
      th.scope = "row";
      tr.append(th, element("td", null, JSON.stringify(value)), element("td", "note", state.knobDocs[name] || ""));
      body.append(tr);
    }
  }

  /** The wild-rank box is for variants with a cut joker; elsewhere it is hidden, unless it holds
   * a value (from a link, say), which is then shown with the reason to clear it. */
  function showWildField() {
    const info = variantInfo();
    const cut = Boolean(knobs().cut_joker);
    const stale = !cut && fields.wild.value.trim() !== "";
    $("wild-field").hidden = !cut && !stale;
    fields.wild.disabled = !cut && !stale;
    fields.wild.placeholder = cut ? "7H" : "";
    $("wild-help").textContent = cut
      ? "The cut card: a rank (7), a card (7H; indian21 needs the suit for its upper and lower jokers) or JK."
      : `${info ? info.name : "This variant"} has no cut joker: clear this box (or set the knob cut_joker in the house rules).`;
  }

  // ------------------------------------------------------------------ hand

  function handTokens() {
    return tokenize(fields.hand.value);
  }

  function setHand(tokens) {
    fields.hand.value = tokens.join(" ");
    state.badHandIndex = null;
    renderHand();
  }

  function renderHand() {
    const tokens = handTokens();
    const box = $("hand-cards");
    box.replaceChildren();
    tokens.forEach((token, i) => {
      const canonical = parseCard(token);
      const button = cardElement(canonical || token, { tag: "button" });
      button.type = "button";
      button.dataset.index = String(i);
      const what = canonical ? cardFace(canonical).name : `unknown card ${token}`;
      button.setAttribute("aria-label", `${what}: remove from the hand`);
      button.title = `${what} (click to remove)`;
      if (!canonical || state.badHandIndex === i) {
        button.classList.add("bad");
        button.setAttribute("aria-invalid", "true");
      }
      button.addEventListener("click", () => {
        const left = handTokens();
        left.splice(i, 1);
        setHand(left);
        changed(CLICK_DELAY_MS);
      });
      box.append(button);
    });
    const info = variantInfo();
    let count = `${tokens.length} card${tokens.length === 1 ? "" : "s"}`;
    if (info) {
      const wanted = info.knobs.hand_size + (fields.discard.checked ? 1 : 0);
      count += ` (${info.name} ${fields.discard.checked ? "discard: " : "deals "}${wanted})`;
    }
    $("hand-count").textContent = count;
    $("hand-empty").hidden = tokens.length > 0;
    updatePicker();
  }

  // ---------------------------------------------------------------- picker

  function pickerTokens() {
    const tokens = [];
    for (const suit of SUITS) for (const rank of RANKS) tokens.push(rank + suit);
    tokens.push(JOKER);
    return tokens;
  }

  function buildPicker() {
    const picker = $("picker");
    pickerTokens().forEach((token, i) => {
      const face = cardFace(token);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pick " + (face.joker ? "joker" : face.red ? "red" : "black");
      button.dataset.card = token;
      button.dataset.testid = `pick-${token}`;
      button.tabIndex = i === 0 ? 0 : -1;
      button.append(span("rank", face.label), span("suit", face.joker ? "★" : face.symbol), span("count", ""));
      button.addEventListener("click", () => pick(token));
      picker.append(button);
    });
    picker.addEventListener("keydown", (event) => {
      const buttons = Array.from(picker.querySelectorAll("button"));
      const at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -13, ArrowDown: 13 };
      let next = null;
      if (event.key in moves) next = Math.min(buttons.length - 1, Math.max(0, at + moves[event.key]));
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = buttons.length - 1;
      if (next === null) return;
      event.preventDefault();
      buttons[at].tabIndex = -1;
      buttons[next].tabIndex = 0;
      buttons[next].focus();
    });
  }

  function updatePicker() {
    const counts = new Map();
    for (const token of handTokens()) {
      const card = parseCard(token);
      if (card) counts.set(card, (counts.get(card) || 0) + 1);
    }
    const top = parseCard(fields.top.value);
    for (const button of $("picker").querySelectorAll("button")) {
      const token = button.dataset.card;
      const count = counts.get(token) || 0;
      const max = maxCopies(token);
      const face = cardFace(token);
      button.setAttribute("aria-pressed", count > 0 ? "true" : "false");
      button.querySelector(".count").textContent = count > 1 ? `×${count}` : "";
      button.classList.toggle("is-top", token === top);
      button.disabled = max === 0 && count === 0;
      let label = `${face.name}: ${count} in the hand`;
      if (token === top) label += ", discard-pile top";
      if (max === 0) label += " (this variant has no jokers)";
      button.setAttribute("aria-label", label);
      button.title = label;
    }
  }

  function pickTarget() {
    return document.querySelector("input[name=target]:checked").value;
  }

  /** A click on the picker: cycles the card's copies in the hand (0, 1 .. decks, 0), or sets the pile top. */
  function pick(token) {
    if (pickTarget() === "top") {
      fields.top.value = token;
      updatePicker();
      syncUrl();
      drawHint();
      return;
    }
    const tokens = handTokens();
    const copies = tokens.filter((t) => parseCard(t) === token).length;
    if (copies >= Math.max(1, maxCopies(token))) {
      setHand(tokens.filter((t) => parseCard(t) !== token));
    } else {
      setHand([...tokens, token]);
    }
    changed(CLICK_DELAY_MS);
  }

  // ------------------------------------------------------------------- URL

  function readUrl() {
    const params = new URLSearchParams(location.search);
    const variant = params.get("variant");
    if (variant) {
      if (!state.variants.has(variant)) {
        // Keep it selectable so the API's own message says what is wrong.
        fields.variant.append(new Option(variant, variant));
      }
      fields.variant.value = variant;
    }
    fields.hand.value = tokenize(params.get("hand") || "").join(" ");
    fields.wild.value = params.get("wild") || params.get("wild_rank") || "";
    fields.discard.checked = ["1", "true", "on", "yes"].includes((params.get("discard") || "").toLowerCase());
    fields.rules.value = params.get("rules") || "";
    if (fields.rules.value) $("rules-box").open = true;
    fields.top.value = params.get("top") || "";
    fields.seen.value = tokenize(params.get("seen") || "").join(" ");
  }

  function shareUrl() {
    const params = new URLSearchParams();
    params.set("variant", fields.variant.value);
    const hand = handTokens().map((t) => parseCard(t) || t);
    if (hand.length) params.set("hand", hand.join(" "));
    if (fields.wild.value.trim()) params.set("wild", fields.wild.value.trim());
    if (fields.discard.checked) params.set("discard", "1");
    if (fields.rules.value.trim()) params.set("rules", fields.rules.value.trim());
    if (fields.top.value.trim()) params.set("top", fields.top.value.trim());
    const seen = tokenize(fields.seen.value);
    if (seen.length) params.set("seen", seen.join(" "));
    return `${location.pathname}?${params}`;
  }

  function syncUrl() {
    if (!state.variants.size) return; // not loaded yet: the address keeps the link's values
    history.replaceState(null, "", shareUrl());
  }

  // ------------------------------------------------------------------- API

  const { ANSWER_WAIT_MS, ApiError, answer, headers, unreachable } = window.RummyTableApi;

  const inflight = {};

  /** POST (or GET) a relative API path; a newer call of the same `key` cancels the older one,
   * and one not answered within ANSWER_WAIT_MS is given up (the game pages' wait). */
  async function api(key, path, body) {
    inflight[key]?.abort();
    const controller = new AbortController();
    inflight[key] = controller;
    let response;
    try {
      response = await fetch(path, {
        method: body === undefined ? "GET" : "POST",
        headers: headers(body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(ANSWER_WAIT_MS)]),
      });
    } catch (err) {
      if (err.name === "AbortError") throw err;
      throw unreachable(err.name === "TimeoutError" ? ANSWER_WAIT_MS : null);
    }
    try {
      return await answer(response);
    } finally {
      if (inflight[key] === controller) delete inflight[key];
    }
  }

  function clearErrors(slots) {
    for (const field of slots) {
      const slot = $(errorSlots[field]);
      slot.hidden = true;
      slot.textContent = "";
      delete slot.dataset.items;
      inputOf[field].removeAttribute("aria-invalid");
    }
    if (slots.includes("hand") && state.badHandIndex !== null) {
      state.badHandIndex = null;
      renderHand();
    }
  }

  /** Each error next to its input (the bad hand card marked); returns the messages with no input. */
  function showErrors(detail) {
    const loose = [];
    for (const item of detail) {
      const loc = Array.isArray(item.loc) ? item.loc : [];
      const field = loc[0] === "body" ? loc[1] : undefined;
      if (!(field in errorSlots)) {
        loose.push(item.msg);
        continue;
      }
      const slot = $(errorSlots[field]);
      const deeper = loc.slice(2).filter((part) => typeof part === "string");
      const text = deeper.length ? `${field}.${deeper.join(".")}: ${item.msg}` : item.msg;
      // The answer, the discard hint and the draw hint send the same fields: a fault in one
      // comes back from each, and is said once.
      const said = slot.dataset.items ? JSON.parse(slot.dataset.items) : [];
      if (!said.includes(text)) {
        said.push(text);
        slot.dataset.items = JSON.stringify(said);
        slot.textContent = said.join(" ");
      }
      slot.hidden = false;
      inputOf[field].setAttribute("aria-invalid", "true");
      if (field === "rules") $("rules-box").open = true;
      if (field === "hand" && typeof loc[2] === "number") {
        state.badHandIndex = loc[2];
        renderHand();
      }
    }
    return loose;
  }

  function baseRequest() {
    const body = { variant: fields.variant.value, hand: handTokens() };
    const wild = fields.wild.value.trim();
    if (wild) body.wild_rank = wild;
    const rules = rulesValue();
    if (rules.value) body.rules = rules.value;
    return body;
  }

  /** Checks what can be checked before asking: returns false (the message shown) when the rules box is invalid. */
  function rulesOk() {
    const rules = rulesValue();
    if (!rules.error) return true;
    const slot = $("rules-error");
    slot.textContent = rules.error;
    slot.dataset.items = JSON.stringify([rules.error]);
    slot.hidden = false;
    fields.rules.setAttribute("aria-invalid", "true");
    $("rules-box").open = true;
    return false;
  }

  function setState(section, value, message) {
    const box = $(section);
    box.dataset.state = value;
    box.setAttribute("aria-busy", value === "loading" ? "true" : "false");
    const status = $(`${section}-status`);
    if (message !== undefined) status.textContent = message;
    status.classList.toggle("error", value === "error");
  }

  function failure(section, err, slots) {
    if (err.name === "AbortError") return;
    const loose = err instanceof ApiError ? showErrors(err.detail) : [String(err)];
    const where = slots.filter((field) => !$(errorSlots[field]).hidden).map((field) => FIELD_NAMES[field]);
    const parts = [...loose];
    if (where.length) parts.push(`See ${where.join(", ")} above.`);
    setState(section, "error", parts.join(" ") || "The request failed.");
  }

  // ----------------------------------------------------------------- solve

  const SOLVE_FIELDS = ["variant", "hand", "wild_rank", "rules"];

  async function solve() {
    if (!state.variants.size) return; // the variants did not load: their error and Try again stay
    syncUrl();
    clearErrors(SOLVE_FIELDS);
    if (!handTokens().length) {
      clearSolution();
      setState("result", "empty", "Pick or type a hand.");
      return;
    }
    if (!rulesOk()) {
      setState("result", "error", "Fix the house rules above.");
      return;
    }
    $("result").dataset.hand = handTokens().join(" ");
    setState("result", "loading", "Solving…");
    try {
      const body = { ...baseRequest(), discard: fields.discard.checked };
      const solution = await api("solve", "v1/solve", body);
      renderSolution(solution);
    } catch (err) {
      if (err.name !== "AbortError") clearSolution();
      failure("result", err, SOLVE_FIELDS);
    }
  }

  function clearSolution() {
    $("summary").hidden = true;
    $("summary").replaceChildren();
    $("melds").replaceChildren();
    $("deadwood").replaceChildren();
    $("deadwood-box").hidden = true;
    $("go-out").hidden = true;
    $("go-out").replaceChildren();
  }

  function yesNo(value) {
    return value === null || value === undefined ? "—" : value ? "yes" : "no";
  }

  function summaryItem(list, label, value, testid, className) {
    const wrap = element("div", className || null);
    const dd = element("dd", null, String(value));
    dd.dataset.testid = testid;
    wrap.append(element("dt", null, label), dd);
    list.append(wrap);
    return dd;
  }

  function meldBox(meld, small) {
    const figure = element("figure", "meld " + meld.kind);
    figure.dataset.testid = "meld";
    figure.dataset.kind = meld.kind;
    figure.dataset.cards = meld.cards.join(" ");
    const wilds = meld.cards.filter((c, i) => meld.represents[i] !== c).length;
    const bits = [KIND_LABELS[meld.kind] || meld.kind, `${meld.points} pts`];
    if (meld.pure) bits.push("pure");
    if (wilds) bits.push(`${wilds} wild`);
    const caption = element("figcaption", null, bits.join(" · "));
    figure.append(caption, cardRow(meld.cards, { represents: meld.represents, small }));
    figure.setAttribute("aria-label", `${bits.join(", ")}: ${meld.cards.map(shortName).join(" ")}`);
    return figure;
  }

  function meldList(melds, small) {
    const box = element("div", "melds");
    for (const meld of melds) box.append(meldBox(meld, small));
    if (!melds.length) box.append(element("p", "note", "No melds."));
    return box;
  }

  function renderSolution(solution) {
    clearSolution();
    const summary = $("summary");
    summaryItem(summary, "Deadwood points", solution.deadwood_points, "deadwood-points", "big");
    summaryItem(summary, "Meld points", solution.meld_points, "meld-points");
    summaryItem(summary, "Net points", solution.net_points, "net-points");
    summaryItem(summary, "Penalty", solution.penalty_points, "penalty-points");
    summaryItem(summary, "Declarable", yesNo(solution.declarable), "declarable");
    if (solution.can_open !== null && solution.can_open !== undefined) {
      summaryItem(summary, "Can open", yesNo(solution.can_open), "can-open");
    }
    if (solution.discard) {
      const dd = summaryItem(summary, "Discard", "", "discard-card", "with-card");
      dd.append(cardElement(solution.discard, { small: true }));
    }
    summary.hidden = false;
    $("melds").replaceChildren(...meldList(solution.melds, false).childNodes);
    if (solution.deadwood.length) {
      $("deadwood").replaceChildren(...cardRow(solution.deadwood).childNodes);
      $("deadwood-box").hidden = false;
    }
    if (solution.go_out) {
      const out = $("go-out");
      const go = solution.go_out;
      out.append(element("h3", null, "Going out"));
      out.append(element("p", "note", `Meld points ${go.meld_points}, net ${go.net_points}${go.discard ? ", discarding" : ""}`));
      if (go.discard) out.append(cardElement(go.discard, { small: true }));
      out.append(meldList(go.melds, true));
      out.hidden = false;
    }
    const quality = solution.optimal ? "optimal" : `best found (${solution.status}), not proved optimal`;
    const elapsed = typeof solution.elapsed_ms === "number" ? `, ${solution.elapsed_ms.toFixed(1)} ms` : "";
    setState("result", "done", `${solution.variant}: ${solution.melds.length} meld${solution.melds.length === 1 ? "" : "s"}, ${quality} (${solution.engine}${elapsed}).`);
  }

  // ---------------------------------------------------------- discard hint

  const HINT_FIELDS = ["variant", "hand", "wild_rank", "rules"];

  function valueLabel() {
    return VALUE_LABELS[knobs().objective] || "value";
  }

  async function discardHint() {
    if (!state.variants.size) return; // the variants did not load: their error and Try again stay
    clearErrors(HINT_FIELDS);
    $("discard-hint-result").replaceChildren();
    if (!handTokens().length) {
      setState("discard-hint", "empty", "Pick or type a hand first.");
      return;
    }
    if (!rulesOk()) {
      setState("discard-hint", "error", "Fix the house rules above.");
      return;
    }
    $("discard-hint").dataset.hand = handTokens().join(" ");
    setState("discard-hint", "loading", "Ranking every discard…");
    try {
      const hint = await api("discard-hint", "v1/hints/discard", baseRequest());
      renderDiscardHint(hint);
    } catch (err) {
      failure("discard-hint", err, HINT_FIELDS);
    }
  }

  function renderDiscardHint(hint) {
    const label = valueLabel();
    const list = element("ol", "options");
    const byRank = new Map();
    for (const option of hint.options) {
      if (!byRank.has(option.rank)) byRank.set(option.rank, []);
      byRank.get(option.rank).push(option);
    }
    for (const [rank, options] of byRank) {
      const item = element("li", "option" + (rank === 1 ? " best" : ""));
      item.dataset.testid = "discard-option";
      item.dataset.rank = String(rank);
      item.dataset.discards = options.map((o) => o.discard).join(" ");
      const head = element("div", "option-head");
      head.append(element("span", "option-rank", rank === 1 ? "Best" : `#${rank}`));
      const cards = element("div", "cards small");
      for (const option of options) {
        const button = cardElement(option.discard, { tag: "button", small: true });
        button.type = "button";
        button.dataset.testid = "discard-choice";
        button.setAttribute("aria-label", `discard the ${cardFace(option.discard).name} (${label} ${option.value})`);
        button.title = `Discard ${shortName(option.discard)}: play it`;
        button.addEventListener("click", () => playDiscard(option.discard));
        cards.append(button);
      }
      head.append(cards, element("span", "value", `${label} ${options[0].value}`));
      item.append(head);
      const kept = element("details", "kept");
      kept.append(element("summary", null, "cards kept"));
      kept.append(meldList(options[0].solution.melds, true));
      if (options[0].solution.deadwood.length) {
        kept.append(element("p", "note", "deadwood"), cardRow(options[0].solution.deadwood, { small: true }));
      }
      item.append(kept);
      list.append(item);
    }
    $("discard-hint-result").replaceChildren(list);
    const best = hint.groups[0] || [];
    const quality = hint.optimal ? "" : " (not proved optimal)";
    setState("discard-hint", "done",
      `Discard ${best.map(shortName).join(" or ")}: ${label} ${hint.options[0]?.value ?? "—"}, ${hint.better} is better${quality}.`);
  }

  function playDiscard(token) {
    const tokens = handTokens();
    const at = tokens.findIndex((t) => parseCard(t) === token);
    if (at >= 0) tokens.splice(at, 1);
    fields.discard.checked = false;
    setHand(tokens);
    $("discard-hint-result").replaceChildren();
    setState("discard-hint", "empty", `Discarded ${shortName(token)}.`);
    solve();
  }

  // ------------------------------------------------------------- draw hint

  const DRAW_FIELDS = ["variant", "hand", "wild_rank", "rules", "discard_top", "seen"];
  const RECOMMENDATIONS = {
    take_discard: (top) => `Take the ${shortName(top)} from the discard pile`,
    draw_blind: () => "Draw blind from the stock",
    either: () => "Either: taking the discard and drawing blind are worth the same",
  };

  async function drawHint() {
    if (!state.variants.size) return; // the variants did not load: their error and Try again stay
    syncUrl();
    clearErrors(DRAW_FIELDS);
    $("draw-hint-result").replaceChildren();
    const top = fields.top.value.trim();
    if (!top) {
      setState("draw-hint", "empty", "Give the discard-pile top.");
      return;
    }
    if (!handTokens().length) {
      setState("draw-hint", "empty", "Pick or type a hand first.");
      return;
    }
    if (!rulesOk()) {
      setState("draw-hint", "error", "Fix the house rules above.");
      return;
    }
    const body = { ...baseRequest(), discard_top: top };
    const seen = tokenize(fields.seen.value);
    if (seen.length) body.seen = seen;
    $("draw-hint").dataset.hand = handTokens().join(" ");
    setState("draw-hint", "loading", "Weighing every unseen card…");
    try {
      const hint = await api("draw-hint", "v1/hints/draw", body);
      renderDrawHint(hint);
    } catch (err) {
      failure("draw-hint", err, DRAW_FIELDS);
    }
  }

  function renderDrawHint(hint) {
    const label = valueLabel();
    const box = $("draw-hint-result");
    const verdict = element("p", "verdict " + hint.recommendation,
      (RECOMMENDATIONS[hint.recommendation] || (() => hint.recommendation))(hint.discard_top));
    verdict.dataset.testid = "draw-recommendation";
    verdict.dataset.recommendation = hint.recommendation;
    const reason = element("p", "reason", symbolize(hint.reason));
    reason.dataset.testid = "draw-reason";

    const table = element("table", "compare");
    table.dataset.testid = "draw-compare";
    const rows = [
      ["Hand now", String(hint.current_value)],
      [`Take ${shortName(hint.discard_top)}` + (hint.take.solution.discard ? `, discard ${shortName(hint.take.solution.discard)}` : ""),
        String(hint.take.value)],
      [`Draw blind (${hint.blind.unseen} unseen)`,
        `${hint.blind.expected_value.toFixed(2)} expected` + (String(hint.blind.expected_exact).includes("/") ? ` (${hint.blind.expected_exact})` : "")],
    ];
    const head = document.createElement("tr");
    head.append(element("th", null, ""), element("th", null, `${label} (${hint.better} is better)`));
    head.children[0].scope = "col";
    head.children[1].scope = "col";
    table.append(head);
    for (const [name, value] of rows) {
      const tr = document.createElement("tr");
      const th = element("th", null, name);
      th.scope = "row";
      tr.append(th, element("td", null, value));
      table.append(tr);
    }

    const take = element("details", "kept");
    take.append(element("summary", null, `after taking ${shortName(hint.discard_top)}`));
    take.append(meldList(hint.take.solution.melds, true));
    if (hint.take.solution.deadwood.length) {
      take.append(element("p", "note", "deadwood"), cardRow(hint.take.solution.deadwood, { small: true }));
    }

    const outcomes = element("details", "outcomes");
    outcomes.append(element("summary", null, `every blind draw (${hint.blind.outcomes.length} kinds of card)`));
    const byValue = new Map();
    for (const outcome of hint.blind.outcomes) {
      if (!byValue.has(outcome.value)) byValue.set(outcome.value, []);
      byValue.get(outcome.value).push(outcome);
    }
    const order = [...byValue.keys()].sort((a, b) => (hint.better === "lower" ? a - b : b - a));
    const list = element("ul", "spread");
    for (const value of order) {
      const li = element("li");
      const copies = byValue.get(value).reduce((n, o) => n + o.copies, 0);
      li.append(element("span", "value", `${label} ${value}`), element("span", "note", ` ${copies}/${hint.blind.unseen} `));
      li.append(cardRow(byValue.get(value).map((o) => o.card), { small: true }));
      list.append(li);
    }
    outcomes.append(list);
    box.replaceChildren(verdict, reason, table, take, outcomes);
    setState("draw-hint", "done", hint.optimal ? "" : "Not every answer was proved optimal.");
  }

  // ------------------------------------------------------------- wiring

  let timer = null;

  /** The hand or a setting changed: redraw, then solve (and rerun the hints in use) after `delay`. */
  function changed(delay) {
    renderHand();
    syncUrl();
    clearTimeout(timer);
    timer = setTimeout(refresh, delay);
  }

  function refresh() {
    clearTimeout(timer);
    solve();
    if (fields.discard.checked) discardHint();
    else if ($("discard-hint").dataset.state !== "empty") {
      $("discard-hint-result").replaceChildren();
      setState("discard-hint", "empty", "");
    }
    if (fields.top.value.trim()) drawHint();
  }

  function deal() {
    if (!rulesOk() || !$("rules-error").hidden) {
      // house rules the service refused (decks: 1e9, say) would build a deck of that size
      setState("result", "error", "Fix the house rules above to deal from their deck.");
      return;
    }
    const k = knobs();
    const deck = [];
    for (let d = 0; d < (Number(k.decks) || 1); d++) {
      for (const token of pickerTokens()) {
        if (token !== JOKER) deck.push(token);
      }
      for (let j = 0; j < (Number(k.jokers_per_deck) || 0); j++) deck.push(JOKER);
    }
    const size = Math.min(deck.length, (Number(k.hand_size) || 10) + (fields.discard.checked ? 1 : 0));
    const random = new Uint32Array(deck.length);
    crypto.getRandomValues(random);
    for (let i = deck.length - 1; i > 0; i--) {
      const j = random[i] % (i + 1);
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    setHand(deck.slice(0, size).sort((a, b) => sortKey(a) - sortKey(b)));
    refresh();
  }

  function wire() {
    $("controls").addEventListener("submit", (event) => {
      event.preventDefault();
      renderHand();
      refresh();
    });
    $("draw-form").addEventListener("submit", (event) => {
      event.preventDefault();
      updatePicker();
      drawHint();
    });
    fields.hand.addEventListener("input", () => {
      state.badHandIndex = null;
      renderHand();
      syncUrl();
      clearTimeout(timer);
      // Solve while typing only once every token is a card; Solve (or Enter) asks anyway.
      if (handTokens().every((t) => parseCard(t))) timer = setTimeout(refresh, TYPING_DELAY_MS);
    });
    fields.wild.addEventListener("input", () => changed(TYPING_DELAY_MS));
    fields.variant.addEventListener("change", () => {
      describeVariant();
      changed(0);
    });
    fields.discard.addEventListener("change", () => changed(0));
    fields.rules.addEventListener("change", () => {
      describeVariant();
      changed(0);
    });
    fields.top.addEventListener("change", () => {
      updatePicker();
      syncUrl();
    });
    fields.seen.addEventListener("change", syncUrl);
    $("discard-hint-button").addEventListener("click", discardHint);
    $("deal").addEventListener("click", deal);
    $("sort").addEventListener("click", () => {
      setHand(handTokens().sort((a, b) => sortKey(parseCard(a) || "") - sortKey(parseCard(b) || "")));
      syncUrl();
    });
    $("clear").addEventListener("click", () => {
      setHand([]);
      fields.top.value = "";
      $("draw-hint-result").replaceChildren();
      setState("draw-hint", "empty", "");
      refresh();
      fields.hand.focus();
    });
    $("copy-link").addEventListener("click", async () => {
      syncUrl();
      const status = $("copy-status");
      try {
        await navigator.clipboard.writeText(location.href);
        status.textContent = "Link copied.";
      } catch {
        status.textContent = "Copy this page's address to share the hand.";
      }
    });
  }

  async function start() {
    buildPicker();
    wire();
    await loadVariants();
  }

  /** The variants, then the link's hand and the first answer; on a failure the error and a
   * Try again (a 429 or a service away at load left the page empty for good). */
  async function loadVariants() {
    setState("result", "loading", "Loading the variants…");
    let data;
    try {
      data = await api("variants", "v1/variants");
    } catch (err) {
      failure("result", err, []);
      if (err.name !== "AbortError") {
        const retry = element("button", null, "Try again");
        retry.type = "button";
        retry.dataset.testid = "variants-retry";
        retry.addEventListener("click", () => { retry.remove(); loadVariants(); });
        $("result-status").append(" ", retry);
      }
      return;
    }
    state.knobDocs = data.knob_docs || {};
    for (const info of data.variants) {
      state.variants.set(info.name, info);
      fields.variant.append(new Option(info.name, info.name));
    }
    fields.variant.value = state.variants.has("gin") ? "gin" : data.variants[0]?.name;
    readUrl();
    describeVariant();
    renderHand();
    // On a phone the 53-card picker would push the answer far down: fold it once there is a hand.
    if (handTokens().length && matchMedia(PHONE).matches) $("picker-details").open = false;
    document.body.dataset.ready = "true";
    refresh();
  }

  start();
})();

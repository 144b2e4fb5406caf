// Indian rummy against the bots: one deal of 13-card Indian rummy at a time, you (seat 0) and
// one to three bots.  The referee (indian-referee.js) holds the deal; you are offered only the
// legal moves of your turn (POST /v1/hints/discard says whether the 13 cards you would keep
// make a valid show), each bot plays POST /v1/advise's answer from its own seat's view in its
// style (`botMove`: lively bots play on unless the hand is hopeless; the advisor's style drops
// whenever the advisor says), the Hint button asks /v1/advise from your view (every move ranked,
// the drop beside playing on, always as the advisor says), a show is checked by POST
// /v1/validate and the deal scored by POST /v1/score/round.  The game (seed, deal number,
// players, running totals, levels, bot style) lives in the query string.  Once a deal is over,
// Review sends it as a recorded game (the referee's record: the whole deal, the cut card and
// every action) to POST /v1/review and shows each decision's label and loss, a graph of every
// player's points lost, and a decision's moves on a click (review-panel.js).
"use strict";

(() => {
  const { cardElement, cardRow, shortName, symbolize, element, span } = window.RummyCards;
  const { api, describeError } = window.RummyTableApi;
  const tablePage = window.RummyTablePage;
  const { HUMAN, setStatus, sorted } = tablePage;
  const cards = tablePage.cardWords;
  const { points } = window.RummyAdviceChart;
  const { Game, SEED_MAX, MIN_PLAYERS, MAX_PLAYERS, randomSeed, showNeeds } = window.IndianReferee;
  const W = window.RummyWords;
  const { DROP_FIRST, DROP_MIDDLE, WRONG_DECLARATION, POINTS_CAP } = W.INDIAN13;

  const SHOWN_MOVES = 4;
  const DEFAULT_PLAYERS = 3;
  // Bot styles.  The advisor's drop advice is right for the money (a first drop costs 10, a poor
  // hand played on often more) but bots that take it end many deals at once: in 5 of 13 seeds
  // every bot dropped on its first turn (issue 38).  A lively bot drops only a hopeless hand.
  const STYLES = ["lively", "advisor"];
  const DEFAULT_STYLE = "lively";
  const HOPELESS_WIN = 0.1; // a lively bot drops when its best other move wins less often than this

  const $ = (id) => document.getElementById(id);

  const match = {
    seed: 0, dealNumber: 1, players: DEFAULT_PLAYERS, totals: [0, 0, 0], botLevel: "standard",
    hintLevel: "standard", delay: tablePage.BOT_DELAY_MS, style: DEFAULT_STYLE,
  };
  let game = null;
  let discards = null; // POST /v1/hints/discard's answer for the human's 14 cards
  let declaration = null; // the valid show those 14 cards allow (or null)
  let scored = null; // POST /v1/score/round's answer once the deal is scored
  let drawnCard = null; // the card the human just drew, marked in its hand
  let epoch = 0; // bumped by every move and deal: an answer for an older state is dropped

  // ---------------------------------------------------------------- errors

  const { show: showError, clear: clearError, refuse } = tablePage.errorPanel();

  // ---------------------------------------------------------------- review

  // Once the deal is over, its Review button sends the referee's record of it to POST
  // /v1/review; the panel is review-panel.js's.  The record's ids and the review's colours:
  // you, then bot-1, bot-2, bot-3 by seat.
  const review = window.RummyReviewPanel.create({
    who, seatClass, moveWords, round: "deal", epoch: () => epoch,
    record: () => (game.phase === W.OVER ? game.record(playerIds()) : null),
  });

  function playerIds() {
    return [...game.hands.keys()].map((seat) => (seat === HUMAN ? "you" : `bot-${seat}`));
  }

  function seatClass(seat) {
    return seat === HUMAN ? "you" : `bot bot-${seat}`;
  }


  // ------------------------------------------------------------------ words

  function who(seat) {
    return seat === HUMAN ? "You" : `Bot ${seat}`;
  }

  /** A move in words, for the player `seat` ("Discard 9♠", "Bot 2 draws from the stock"). */
  function moveWords(move, { seat = null } = {}) {
    return tablePage.moveWords(move, seat, who, (m, card, verb) => {
      if (m.action === W.DROP) return verb("Drop", "drops");
      if (m.action === W.DECLARE) return verb(`Show: throw ${card} and declare`, `throws ${card} and declares`);
      return undefined;
    });
  }


  function whole(value) {
    const rounded = Math.round(value);
    return `${rounded > 0 ? "+" : rounded < 0 ? "−" : "±"}${Math.abs(rounded)}`;
  }


  // ------------------------------------------------------------------- URL

  function readUrl() {
    const params = tablePage.readSettings(match, { seedMax: SEED_MAX, randomSeed });
    match.dealNumber = tablePage.numberParam(params, "deal", 1, 1000) ?? 1;
    match.players = tablePage.numberParam(params, "players", MIN_PLAYERS, MAX_PLAYERS) ?? DEFAULT_PLAYERS;
    match.style = STYLES.includes(params.get("style")) ? params.get("style") : DEFAULT_STYLE;
    const score = (params.get("score") || "").split(",");
    match.totals = score.length === match.players && score.every((s) => /^-?\d{1,5}$/.test(s))
      ? score.map(Number) : new Array(match.players).fill(0);
  }

  function syncUrl() {
    const url = tablePage.shareUrl(match, [
      ["deal", String(match.dealNumber)], ["players", String(match.players)],
      ["score", match.totals.some((t) => t !== 0) ? match.totals.join(",") : null],
      ["style", match.style === DEFAULT_STYLE ? null : match.style],
    ]);
    tablePage.showUrl(url, match.seed);
    $("players").value = String(match.players);
    $("bot-style").value = match.style;
  }

  // -------------------------------------------------------------- the turn

  function startDeal() {
    epoch += 1;
    game = new Game(match.seed, match.dealNumber, match.players);
    discards = null;
    declaration = null;
    scored = null;
    drawnCard = null;
    review.clear();
    tablePage.clearTable();
    $("show-mode").checked = false;
    clearHint();
    syncUrl();
    advance();
  }

  /** Whoever is to act acts: a bot asks the advisor, the human is shown its moves. */
  function advance() {
    clearError();
    render();
    tablePage.idleHint(game.phase === W.OVER ? "The deal is over."
      : game.toAct !== HUMAN ? "Hints are for your turn: a bot is playing." : "Ask for every legal move, ranked.");
    if (game.phase === W.OVER) finishDeal();
    else if (game.toAct !== HUMAN) botTurn();
    else humanTurn();
  }

  /** Play `move` for the player to act (`note`: why, in the log, when it is not the advisor's
   * choice), and go on. */
  function play(move, note = null) {
    const seat = game.toAct;
    const { drawn } = game.apply(move);
    epoch += 1;
    drawnCard = tablePage.afterMove(seat, move, drawn);
    logMove(seat, move, drawn, note);
    discards = null;
    declaration = null;
    $("show-mode").checked = false;
    clearHint();
    advance();
  }

  async function humanTurn() {
    const at = epoch;
    document.body.dataset.turn = "busy";
    renderMoves(null);
    if (game.phase === W.AFTER_DRAW) {
      setStatus("Checking whether your cards make a show…");
      let answer;
      try {
        answer = await api("v1/hints/discard", game.discardHintRequest());
      } catch (err) {
        if (at === epoch) showError(describeError(err, "Checking for a show (POST /v1/hints/discard)"), humanTurn);
        return;
      }
      if (at !== epoch) return; // a late answer is not the next turn's
      discards = answer;
      declaration = game.declarationFrom(discards);
    }
    tablePage.yourTurn(() => {
      renderMoves(humanMoves());
      render();
    }, turnPrompt);
  }

  function turnPrompt() {
    if (game.phase === W.DRAW) {
      const stage = game.canDrop;
      return `Your turn: take ${shortName(game.pileTop)} from the pile or draw from the stock, `
        + `or drop (${stage} drop: you pay ${game.dropCost()}).`;
    }
    return declaration ? "Your cards make a show: declare, or discard a card (tap it)." : "Discard a card: tap it.";
  }

  /** The human's legal moves, except discards (those are its hand's cards). */
  function humanMoves() {
    return game.legalMoves(declaration).filter((m) => m.action !== W.DISCARD);
  }

  function botTurn() {
    const at = epoch;
    const seat = game.toAct;
    renderMoves([]);
    return tablePage.botTurn({
      name: who(seat), body: game.adviceRequest(seat, { level: match.botLevel }), delay: match.delay,
      current: () => at === epoch, fail: showError, retry: botTurn,
      play: (advice) => {
        const move = botMove(advice);
        play(fromAdvice(move), move !== advice.recommended.move ? "playing on where the advisor would drop" : null);
      },
    });
  }

  /** The move a bot plays from the advice for its seat: the recommendation, except that a
   * lively bot does not drop a hand that is not hopeless: it plays the advisor's best other move
   * (the moves come best first) unless that wins under HOPELESS_WIN of the deals. */
  function botMove(advice) {
    const best = advice.recommended.move;
    if (match.style !== "lively" || best.action !== W.DROP) return best;
    const on = advice.moves.find((v) => v.move.action !== W.DROP);
    return on && on.win_probability >= HOPELESS_WIN ? on.move : best;
  }

  /** The human plays `move` (a button, a card, or a hint). */
  function humanPlay(move) {
    tablePage.playYours(game, move, {
      legal: (m) => m && game.isLegal(m, declaration), words: (m) => (m ? moveWords(m) : "That"), refuse, play,
    });
  }

  // ------------------------------------------------------------ the end

  async function finishDeal() {
    const at = epoch;
    $("hint-button").disabled = true;
    renderMoves([]);
    document.body.dataset.turn = "busy";
    try {
      // Each answer is kept only while its deal is current: a late one (after a new
      // game) would stand for the next deal's.
      const shown = game.declaration;
      if (shown && shown.valid === null) {
        setStatus("Checking the show…");
        const judged = await api("v1/validate", game.validateRequest());
        if (at !== epoch) return;
        game.judge(judged);
      }
      const request = game.scoreRequest();
      if (request && !scored) {
        setStatus("Scoring the deal…");
        const answer = await api("v1/score/round", request);
        if (at !== epoch) return;
        scored = answer;
      }
    } catch (err) {
      if (at === epoch) showError(describeError(err, "Scoring the deal"), finishDeal);
      return;
    }
    if (at !== epoch) return;
    if (!game.counted) {
      if (scored) scored.points.forEach((p, seat) => { match.totals[seat] += p; });
      game.counted = true;
    }
    document.body.dataset.turn = W.OVER;
    render();
    setStatus(outcomeWords());
    showOutcome();
  }

  function outcomeWords() {
    if (game.ending === "void") return "The stock ran out without a show: a void deal, nobody pays.";
    const gain = (seat) => (scored ? scored.points[seat] : 0);
    if (game.ending === "dropped") {
      const left = game.active[0];
      return `Everyone else dropped: ${left === HUMAN ? "you collect" : who(left) + " collects"} ${gain(left)}.`;
    }
    const d = game.declaration;
    if (!d.valid) {
      return `${who(d.player)} declared wrongly: ${d.player === HUMAN ? "you pay" : who(d.player) + " pays"} `
        + `${-gain(d.player)}, nobody else pays.`;
    }
    const rummy = game.handRummy ? " (hand rummy: doubled)" : "";
    return `${who(d.player)} showed a valid hand: ${d.player === HUMAN ? "you collect" : who(d.player) + " collects"} `
      + `${gain(d.player)}${rummy}.`;
  }

  function showOutcome() {
    const box = $("outcome");
    box.replaceChildren();
    box.dataset.ending = game.ending;
    const d = game.declaration;
    if (d) box.dataset.valid = String(d.valid);
    box.dataset.rummy = String(game.handRummy);
    const dealPoints = scored ? scored.points : new Array(game.players).fill(0);
    box.dataset.points = dealPoints.join(",");
    box.append(tablePage.outcomeHead(outcomeWords()));
    if (d) box.append(showBox(d));
    box.append(summaryTable(dealPoints));
    const next = element("button", "primary", `Next deal (${match.dealNumber + 1})`);
    next.type = "button";
    next.dataset.testid = "next-deal";
    next.addEventListener("click", () => {
      match.dealNumber += 1;
      startDeal();
    });
    renderTotals();
    tablePage.showOutcome(box, review.button(), next);
  }

  function showBox(d) {
    const box = element("div", "side");
    box.dataset.testid = "outcome-show";
    const verdict = d.valid ? "a valid show" : "a wrong show";
    box.append(element("h4", null, `${who(d.player)} threw ${shortName(d.card)}: ${verdict}`));
    const row = element("div", "melds");
    for (const meld of d.melds) {
      const figure = element("figure", "meld");
      figure.dataset.testid = "outcome-meld";
      figure.append(cardRow(meld, { small: true }));
      row.append(figure);
    }
    if (row.childNodes.length) box.append(row);
    if (d.deadwood.length) box.append(tablePage.deadwoodGroup("Not melded", d.deadwood));
    if (!d.valid && d.problems.length) {
      const list = element("ul", "problems");
      list.dataset.testid = "show-problems";
      for (const problem of d.problems) list.append(element("li", null, symbolize(problem)));
      box.append(list);
    }
    return box;
  }

  /** One row per seat: its cards, its count, what it pays or collects, and why. */
  function summaryTable(dealPoints) {
    const wrap = element("div", "table-wrap");
    const table = element("table", "summary-table");
    table.dataset.testid = "summary";
    const head = element("thead");
    const headRow = element("tr");
    for (const title of ["Player", "Cards", "Count", "Deal", "Total"]) {
      const th = element("th", null, title);
      th.scope = "col";
      headRow.append(th);
    }
    head.append(headRow);
    const body = element("tbody");
    for (let seat = 0; seat < game.players; seat++) {
      const mine = scored ? scored.players[seat] : null;
      const row = element("tr", seat === HUMAN ? "you" : "");
      row.dataset.testid = "summary-row";
      row.dataset.seat = String(seat);
      row.dataset.role = mine ? mine.role : "void";
      row.dataset.points = String(dealPoints[seat]);
      row.dataset.pays = mine && mine.pays !== null ? String(mine.pays) : "";
      row.dataset.count = mine && mine.count !== null ? String(mine.count) : "";
      row.dataset.hadTurn = String(game.turns[seat] > 0);
      row.dataset.dropped = game.dropped[seat] || "";
      const held = game.declaration && game.declaration.player === seat ? game.declaration.kept : game.hands[seat];
      row.dataset.hand = held.join(" ");
      const name = element("th", null, who(seat));
      name.scope = "row";
      const cardsCell = element("td", "summary-cards");
      if (game.dropped[seat]) cardsCell.append(element("span", "note", `dropped (${game.dropped[seat]})`));
      else cardsCell.append(cardRow(sorted(held), { small: true }));
      const count = element("td", null, mine && mine.count !== null ? String(mine.count) : "–");
      const deal = element("td", "summary-points", whole(dealPoints[seat]));
      if (mine) deal.title = symbolize(mine.explanation);
      const total = element("td", "summary-total", String(match.totals[seat]));
      row.append(name, cardsCell, count, deal, total);
      body.append(row);
      if (mine) {
        const why = element("tr", "summary-why");
        const cell = element("td", "note", symbolize(mine.explanation));
        cell.colSpan = 5;
        why.append(cell);
        body.append(why);
      }
    }
    table.append(head, body);
    wrap.append(table);
    return wrap;
  }

  // ------------------------------------------------------------- drawing

  function render() {
    renderTotals();
    const table = tablePage.renderTable(game, game.toAct === HUMAN ? "you" : `bot-${game.toAct}`, wildMarked);
    table.dataset.players = String(game.players);
    const cut = cardElement(game.cutCard);
    cut.title = game.cutCard === "JK" ? "A printed joker was cut: only the jokers are wild"
      : `The cut card: every ${shortName(game.cutCard).slice(0, -1)} is wild`;
    $("cut-card").replaceChildren(cut);
    renderBots();
    renderHand();
  }

  function renderTotals() {
    const box = $("totals");
    box.replaceChildren();
    for (let seat = 0; seat < match.players; seat++) {
      const item = element("span", "total" + (seat === HUMAN ? " score-you" : ""));
      item.append(`${seat === HUMAN ? "You" : who(seat)} `);
      const value = element("b", null, String(match.totals[seat] ?? 0));
      value.dataset.testid = `total-${seat}`;
      item.append(value);
      box.append(item);
    }
    const dealer = game ? (game.dealer === HUMAN ? "you deal" : `${who(game.dealer)} deals`) : "";
    $("deal-note").textContent = `deal ${match.dealNumber}${dealer ? " · " + dealer : ""}`;
  }

  function wildMarked(node, card) {
    if (game.isWild(card)) {
      node.classList.add("is-wild");
      node.setAttribute("aria-label", `${node.getAttribute("aria-label")}, wild`);
    }
    return node;
  }

  function renderBots() {
    const box = $("bots");
    box.replaceChildren();
    const reveal = game.phase === W.OVER && document.body.dataset.turn === W.OVER;
    for (let seat = 1; seat < game.players; seat++) {
      const hand = game.hands[seat];
      const seatBox = element("div", "seat bot-seat" + (game.toAct === seat && game.phase !== W.OVER ? " acting" : ""));
      seatBox.dataset.testid = "bot-seat";
      seatBox.dataset.seat = String(seat);
      seatBox.dataset.dropped = game.dropped[seat] || "";
      const title = element("h3", null, who(seat) + " ");
      const count = element("span", "count", `${hand.length} cards`);
      title.append(count);
      if (game.dealer === seat) title.append(" ", element("span", "tag", "dealer"));
      if (game.dropped[seat]) title.append(" ", element("span", "tag dropped", `dropped (${game.dropped[seat]})`));
      const row = element("div", "cards" + (reveal ? "" : " backs"));
      row.dataset.testid = "bot-hand";
      if (reveal) {
        for (const card of sorted(hand)) row.append(wildMarked(cardElement(card, { small: true }), card));
        row.setAttribute("aria-label", `${who(seat)}'s hand: ${cards(hand)}`);
      } else {
        for (let i = 0; i < hand.length; i++) row.append(span("card back small", ""));
        row.setAttribute("aria-label", `${who(seat)} holds ${hand.length} cards`);
      }
      seatBox.append(title, row);
      box.append(seatBox);
    }
  }

  function renderHand() {
    const hand = sorted(game.hands[HUMAN]);
    const box = $("your-hand");
    box.replaceChildren();
    const mine = tablePage.humansTurn(game);
    const discarding = mine && game.phase === W.AFTER_DRAW;
    const showing = discarding && $("show-mode").checked;
    const taken = game.takenThisTurn;
    for (const card of hand) {
      const legal = discarding && game.mayThrow(card); // the other copy of a taken card may go
      const node = tablePage.handCard(card, drawnCard, wildMarked);
      if (legal) {
        node.dataset.move = showing ? W.DECLARE : W.DISCARD;
        const label = node.getAttribute("aria-label");
        node.setAttribute("aria-label", showing ? `Throw the ${label} and declare` : `Discard the ${label}`);
        node.title = showing ? `Throw ${shortName(card)} and show the rest` : `Discard ${shortName(card)}`;
        node.addEventListener("click", tablePage.singleClick(() => {
          humanPlay($("show-mode").checked ? game.showThrowing(discards, card) : { action: W.DISCARD, card });
        }));
      } else {
        tablePage.lockCard(node, card, discarding && card === taken); // the only copy held: it cannot go back
      }
      box.append(node);
    }
    box.classList.toggle("showing", showing);
    $("show-box").hidden = !discarding;
    let note = `${hand.length} cards`;
    if (game.dropped[HUMAN]) note += ` · you dropped (${game.dropped[HUMAN]}): the bots play on`;
    else if (discarding && discards) {
      const best = discards.options[0];
      note += ` · least count after a discard: ${best.value}`;
    }
    $("your-count").textContent = note;
  }

  /** The buttons of the human's moves other than discards (null: still being worked out). */
  function renderMoves(moves) {
    tablePage.moveButtons(moves, {
      kind: (move) => (move.action === W.DECLARE ? "primary" : move.action === W.DROP ? "drop-move" : ""),
      words: (move) => moveWords(move)
        + (move.action === W.DROP ? ` (${game.canDrop} drop: pay ${game.dropCost()})` : ""),
      play: humanPlay,
    });
  }

  function logMove(seat, move, drawn, note = null) {
    const text = moveWords(move, { seat }) + (seat === HUMAN && drawn ? ` (${shortName(drawn)})` : "")
      + (move.action === W.DROP ? ` (${game.dropped[seat]})` : "") + (note ? ` (${note})` : "");
    const event = game.history[game.history.length - 1];
    tablePage.logMove(seat, text, SHOWN_MOVES, tablePage.historyEntry(event, event.player === HUMAN ? "you" : who(event.player)));
  }

  // ------------------------------------------------------------------ hint

  function clearHint(message = "") {
    tablePage.clearHint(message);
    $("drop-advice").hidden = true;
    $("drop-advice").replaceChildren();
  }

  function hint() {
    if (!tablePage.humansTurn(game)) return;
    const at = epoch;
    const body = game.adviceRequest(HUMAN, { level: match.hintLevel });
    tablePage.askHint(body, match.hintLevel, () => at === epoch, renderAdvice);
  }

  /** The drop against playing on, in one line: what dropping costs now, what the best other
   * move is expected to bring. */
  function renderDropAdvice(advice) {
    const line = $("drop-advice");
    const drop = advice.moves.find((v) => v.move.action === W.DROP);
    if (!drop) {
      line.hidden = true;
      return;
    }
    const on = advice.moves.find((v) => v.move.action !== W.DROP);
    const stage = game.canDrop;
    line.replaceChildren();
    line.dataset.drop = String(drop.expected_points);
    line.dataset.playOn = on ? String(on.expected_points) : "";
    const dropping = element("span", "drop-now", `Drop now: ${whole(drop.expected_points)}`);
    dropping.dataset.testid = "drop-now";
    dropping.title = `${stage} drop: you pay ${game.dropCost()}`;
    line.append(dropping, element("span", "note", ` (${stage} drop) · `));
    if (on) {
      const playing = element("span", "play-on", `play on: ${points(on.expected_points)}`);
      playing.dataset.testid = "play-on";
      line.append(playing, element("span", "note", ` (${moveWords(on.move).toLowerCase()})`));
    }
    line.classList.toggle("drop-better", advice.recommended.move.action === W.DROP);
    line.hidden = false;
  }

  /** Every move the advisor ranked: the recommended first and marked, a bar per move. */
  function renderAdvice(advice) {
    tablePage.renderAdvice(advice, {
      words: (move) => moveWords(move) + (move.action === W.DROP ? ` (${game.canDrop} drop)` : ""),
      statusWords: (move) => moveWords(move),
      marks: (move) => (move.action === W.DROP ? " drop-move" : ""),
      play: (move) => humanPlay(fromAdvice(move)),
    });
    renderDropAdvice(advice);
  }

  /** The advisor's move as the referee plays it. */
  function fromAdvice(move) {
    const played = { action: move.action };
    if (move.card) played.card = move.card;
    if (move.action === W.DECLARE) played.melds = (move.melds || []).map((m) => [...m]);
    return played;
  }

  // ---------------------------------------------------------------- wiring

  function wire() {
    $("show-mode").addEventListener("change", renderHand);
    const restart = (seed) => {
      match.seed = seed;
      match.dealNumber = 1;
      match.players = Number($("players").value);
      match.totals = new Array(match.players).fill(0);
      startDeal();
    };
    tablePage.wireControls({
      settings: match, hint, changed: syncUrl, restart, refuse, seedMax: SEED_MAX, randomSeed,
      newId: "new-game", randomId: "random-game",
    });
    $("players").addEventListener("change", () => restart(match.seed));
    $("bot-style").addEventListener("change", () => {
      match.style = $("bot-style").value;
      syncUrl();
    });
  }

  function start() {
    readUrl();
    $("drop-first").textContent = String(DROP_FIRST);
    $("drop-middle").textContent = String(DROP_MIDDLE);
    $("cap").textContent = String(POINTS_CAP);
    $("wrong-cost").textContent = String(WRONG_DECLARATION);
    $("hopeless").textContent = `${Math.round(HOPELESS_WIN * 100)}%`;
    for (const node of document.querySelectorAll("[data-words=show-needs]")) node.textContent = showNeeds();
    wire();
    document.body.dataset.ready = "true";
    startDeal();
  }

  start();
})();

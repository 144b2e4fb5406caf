// Gin against the bot: one hand at a time to 100 points.  The referee (gin-referee.js) holds
// the hand; the human is offered only the legal moves of its phase (POST /v1/gin/knock says
// which discards may knock, POST /v1/layoffs shows the defender's reply), the bot plays what
// POST /v1/advise recommends from its own view, the Hint button asks /v1/advise from the
// human's view, and a knock is scored with POST /v1/gin/score.  The match (seed, hand number,
// score, levels) lives in the query string, so a hand can be shared and replayed.  Once a hand
// is over, Review sends it as a recorded game (the referee's record: the whole deal and every
// action) to POST /v1/review and shows each decision's label and loss, a graph of both
// players' points lost, and a decision's moves on a click (review-panel.js).
"use strict";

(() => {
  const { cardElement, cardRow, shortName, symbolize, element, span } = window.RummyCards;
  const { api, describeError } = window.RummyTableApi;
  const tablePage = window.RummyTablePage;
  const { HUMAN, setStatus, sorted } = tablePage;
  const cards = tablePage.cardWords;
  const { Game, GAME, MATCH_TARGET, WALL, SEED_MAX, randomSeed } = window.GinReferee;
  const W = window.RummyWords;

  const BOT = 1;
  const SHOWN_MOVES = 3;
  const PLAYERS = ["you", "bot"]; // the record's player ids, by seat
  const SEAT_CLASS = ["you", "bot"]; // the review's colour classes, by seat

  const $ = (id) => document.getElementById(id);

  const match = {
    seed: 0, handNumber: 1, score: [0, 0], botLevel: "standard", hintLevel: "standard",
    delay: tablePage.BOT_DELAY_MS,
  };
  let game = null;
  let knocks = null; // POST /v1/gin/knock's answer for the human's decision
  let reply = null; // the human defender's best reply (from POST /v1/layoffs)
  let scored = null; // POST /v1/gin/score's answer once the hand is scored
  let drawnCard = null; // the card the human just drew, marked in its hand
  let scoreBefore = [0, 0]; // the match score before this hand (the record's score)
  let epoch = 0; // bumped by every move and deal: an answer for an older state is dropped

  // ---------------------------------------------------------------- errors

  const { show: showError, clear: clearError, refuse } = tablePage.errorPanel();

  // ---------------------------------------------------------------- review

  // Once the hand is over, its Review button sends the referee's record of it (with the match
  // score before the hand) to POST /v1/review; the panel is review-panel.js's.
  const review = window.RummyReviewPanel.create({
    who, seatClass: (seat) => SEAT_CLASS[seat], moveWords, round: "hand", epoch: () => epoch,
    record: () => (game.phase === W.OVER ? game.record(PLAYERS, scoreBefore) : null),
  });


  // ------------------------------------------------------------------ words

  function who(seat) {
    return seat === HUMAN ? "You" : "The bot";
  }

  /** A move in words, for the player `seat` ("Discard 9♠", "The bot draws from the stock"). */
  function moveWords(move, { seat = null, phase = null } = {}) {
    return tablePage.moveWords(move, seat, who, (m, card, verb) => {
      switch (m.action) {
        case W.PASS:
          if (phase === W.WALL) return verb("Pass: end the hand without a score", "passes at the wall: the hand ends");
          return verb(`Pass on the ${card || "upcard"}`, `passes on the ${card || "upcard"}`);
        case W.TAKE_DISCARD:
          return phase === W.WALL ? verb(`Take ${card} and knock`, `takes ${card} to knock`) : undefined;
        case W.KNOCK: {
          const gin = m.deadwood && m.deadwood.length === 0;
          return gin ? verb(`Gin: throw ${card} and show every card melded`, `goes gin, throwing ${card}`)
            : verb(`Knock, throwing ${card}`, `knocks, throwing ${card}`);
        }
        case W.LAY_OFF: {
          const laid = (m.layoffs || []).flatMap((l) => l.cards);
          return laid.length ? verb(`Lay off ${cards(laid)} and show your melds`, `lays off ${cards(laid)}`)
            : verb("Show your melds (nothing to lay off)", "shows its melds (nothing to lay off)");
        }
        default:
          return undefined;
      }
    });
  }



  // ------------------------------------------------------------------- URL

  function readUrl() {
    const params = tablePage.readSettings(match, { seedMax: SEED_MAX, randomSeed });
    match.handNumber = tablePage.numberParam(params, "hand", 1, 1000) ?? 1;
    const score = /^(\d{1,3})-(\d{1,3})$/.exec(params.get("score") || "");
    match.score = score && Number(score[1]) < MATCH_TARGET && Number(score[2]) < MATCH_TARGET
      ? [Number(score[1]), Number(score[2])] : [0, 0];
  }

  function syncUrl() {
    const score = match.score[0] || match.score[1] ? `${match.score[0]}-${match.score[1]}` : null;
    const url = tablePage.shareUrl(match, [["hand", String(match.handNumber)], ["score", score]]);
    tablePage.showUrl(url, match.seed);
  }

  // -------------------------------------------------------------- the turn

  function startHand() {
    epoch += 1;
    game = new Game(match.seed, match.handNumber);
    knocks = null;
    reply = null;
    scored = null;
    drawnCard = null;
    scoreBefore = [...match.score];
    review.clear();
    tablePage.clearTable();
    clearHint();
    syncUrl();
    advance();
  }

  /** Whoever is to act acts: the bot asks the advisor, the human is shown its moves. */
  function advance() {
    clearError();
    render();
    tablePage.idleHint(game.phase === W.OVER ? "The hand is over."
      : game.toAct === BOT ? "Hints are for your turn: the bot is playing." : "Ask for every legal move, ranked.");
    if (game.phase === W.OVER) finishHand();
    else if (game.toAct === BOT) botTurn();
    else humanTurn();
  }

  /** Play `move` for the player to act, and go on. */
  function play(move) {
    const seat = game.toAct;
    const phase = game.phase;
    const { drawn } = game.apply(move);
    epoch += 1;
    drawnCard = tablePage.afterMove(seat, move, drawn);
    logMove(seat, move, phase, drawn);
    knocks = null;
    reply = null;
    clearHint();
    advance();
  }

  async function humanTurn() {
    const at = epoch;
    document.body.dataset.turn = "busy";
    renderMoves(null);
    const check = game.knockCheckHand();
    try {
      // Each answer is kept only while its turn is current: a late one (after a move or
      // a new match) would stand for the next turn's.
      if (check) {
        setStatus("Checking which discards may knock…");
        const answer = await api("v1/gin/knock", { hand: check });
        if (at === epoch) knocks = answer;
      }
      if (at === epoch && game.phase === W.LAYOFF) {
        setStatus("Finding your best melds and layoffs…");
        const knock = game.knock;
        const table = knock.deadwood.length ? knock.melds : []; // nothing lays off onto gin
        const answer = await api("v1/layoffs", { variant: GAME, hand: [...game.hands[HUMAN]], table });
        if (at === epoch) reply = answer;
      }
    } catch (err) {
      if (at === epoch) showError(describeError(err, check ? "Checking the knock" : "Finding your layoffs"), humanTurn);
      return;
    }
    if (at !== epoch) return;
    tablePage.yourTurn(() => {
      renderMoves(humanMoves());
      render();
    }, turnPrompt);
  }

  function turnPrompt() {
    switch (game.phase) {
      case W.FIRST_UPCARD: return `Your turn: take the upcard ${shortName(game.pileTop)}, or pass.`;
      case W.DRAW: return game.stockOnly ? "Both passed the upcard: draw from the stock." : "Your turn: take the pile top or draw from the stock.";
      case W.WALL:
        return game.legalMoves(knocks).some((m) => m.action === W.TAKE_DISCARD)
          ? `${WALL} cards left in the stock: knock with the pile top, or pass and end the hand.`
          : `${WALL} cards left in the stock and the pile top does not let you knock: pass, and the hand ends.`;
      case W.AFTER_DRAW:
        if (game.mustKnock) return "You took the pile top at the wall: knock.";
        return knocks && knocks.can_knock ? "Discard a card (tap it), or knock." : "Discard a card: tap it.";
      case W.LAYOFF: return "The bot knocked: show your melds and lay off.";
      default: return "";
    }
  }

  /** The human's legal moves, except discards (those are its hand's cards). */
  function humanMoves() {
    if (game.phase === W.LAYOFF) {
      const best = reply.best;
      return [{
        action: W.LAY_OFF, melds: best.melds.map((m) => [...m.cards]), deadwood: [...best.deadwood],
        layoffs: best.layoffs.map((l) => ({ target: l.table_index, cards: [...l.cards] })),
      }];
    }
    return game.legalMoves(knocks).filter((m) => m.action !== W.DISCARD);
  }

  function botTurn() {
    const at = epoch;
    renderMoves([]);
    return tablePage.botTurn({
      name: who(BOT), named: "the bot", body: game.adviceRequest(BOT, { level: match.botLevel, score: match.score }),
      delay: match.delay, current: () => at === epoch, play: (advice) => play(advice.recommended.move),
      fail: showError, retry: botTurn,
    });
  }

  /** The human plays `move` (a button, a card, or a hint). */
  function humanPlay(move) {
    tablePage.playYours(game, move, {
      legal: (m) => game.phase === W.LAYOFF || game.isLegal(m, knocks), words: moveWords, refuse, play,
    });
  }

  // ------------------------------------------------------------ the end

  async function finishHand() {
    const at = epoch;
    $("hint-button").disabled = true;
    renderMoves([]);
    if (game.ending === W.WALL) {
      document.body.dataset.turn = W.OVER;
      setStatus(`The stock is down to ${WALL} cards and nobody knocked: no score this hand.`);
      showOutcome(null);
      return;
    }
    document.body.dataset.turn = "busy";
    setStatus("Scoring the knock…");
    try {
      const answer = scored || await api("v1/gin/score", game.scoreRequest());
      if (at === epoch) scored = answer; // a late answer is not the next hand's score
    } catch (err) {
      if (at === epoch) showError(describeError(err, "Scoring the knock (POST /v1/gin/score)"), finishHand);
      return;
    }
    if (at !== epoch) return;
    if (!game.counted) {
      const knocker = game.knock.player;
      const winner = scored.winner === "knocker" ? knocker : 1 - knocker;
      match.score[winner] += scored.points;
      game.counted = true;
    }
    document.body.dataset.turn = W.OVER;
    render();
    setStatus(outcomeWords());
    showOutcome(scored);
  }

  function winnerSeat() {
    return scored.winner === "knocker" ? game.knock.player : 1 - game.knock.player;
  }

  function outcomeWords() {
    const knocker = who(game.knock.player);
    const how = {
      knock: `${knocker} knocked`, gin: `${knocker} went gin`, big_gin: `${knocker} went big gin`,
      undercut: `${knocker} knocked and ${knocker === "You" ? "were" : "was"} undercut`,
    }[scored.outcome] || scored.outcome;
    const winner = winnerSeat() === HUMAN ? "you score" : "the bot scores";
    return `${how}: ${winner} ${scored.points} points.`;
  }

  function showOutcome(result) {
    const box = $("outcome");
    box.replaceChildren();
    box.dataset.ending = game.ending;
    if (result) {
      box.dataset.outcome = result.outcome;
      box.dataset.winner = winnerSeat() === HUMAN ? "you" : "bot";
      box.dataset.points = String(result.points);
      box.append(tablePage.outcomeHead(outcomeWords()));
      const knocker = game.knock.player;
      box.append(sideBox(`${who(knocker)} (knocker)`, result.knocker.melds, [], result.knocker.deadwood,
        result.knocker.deadwood_points, "knocker"));
      box.append(sideBox(`${who(1 - knocker)} (defender)`, result.defender.melds, result.defender.layoffs,
        result.defender.deadwood, result.defender.deadwood_points, "defender", result.knocker.melds));
      const shown = game.knock.melds.map((m) => [...m].sort().join(" ")).sort().join("|");
      const scoredMelds = result.knocker.melds.map((m) => [...m.cards].sort().join(" ")).sort().join("|");
      if (shown !== scoredMelds) {
        box.append(element("p", "note", "Scored with the knocker's best melds against this defender "
          + "(POST /v1/gin/score), not the melds shown at the knock."));
      }
      box.append(element("p", "note", symbolize(result.explanation)));
    } else {
      box.dataset.outcome = W.WALL;
      box.append(tablePage.outcomeHead("The hand ends at the wall: no score."));
    }
    const over = match.score.some((s) => s >= MATCH_TARGET);
    const next = element("button", "primary", over ? "New match" : `Next hand (${match.handNumber + 1})`);
    next.type = "button";
    next.dataset.testid = over ? "new-match-after" : "next-hand";
    next.addEventListener("click", () => {
      if (over) {
        match.score = [0, 0];
        match.handNumber = 1;
        match.seed = randomSeed();
      } else {
        match.handNumber += 1;
      }
      startHand();
    });
    if (over) {
      const won = match.score[HUMAN] >= MATCH_TARGET;
      const line = element("p", "match-over", `${won ? "You win" : "The bot wins"} the match ${match.score[HUMAN]}–${match.score[BOT]}.`);
      line.dataset.testid = "match-over";
      box.append(line);
    }
    renderScore();
    tablePage.showOutcome(box, review.button(), next);
  }

  function sideBox(title, melds, layoffs, deadwood, deadwoodPoints, testid, targets = []) {
    const box = element("div", "side");
    box.dataset.testid = `outcome-${testid}`;
    box.append(element("h4", null, title + (deadwoodPoints === null ? "" : ` · deadwood ${deadwoodPoints}`)));
    const row = element("div", "melds");
    for (const meld of melds) {
      const figure = element("figure", "meld");
      figure.dataset.testid = "outcome-meld";
      figure.append(element("figcaption", null, meld.kind === "set" ? "Set" : "Run"), cardRow(meld.cards, { small: true }));
      row.append(figure);
    }
    for (const layoff of layoffs) {
      const onto = targets[layoff.table_index];
      const figure = element("figure", "meld layoff");
      figure.dataset.testid = "outcome-layoff";
      figure.append(element("figcaption", null, `Laid off${onto ? " onto " + cards(onto.cards) : ""}`),
        cardRow(layoff.cards, { small: true }));
      row.append(figure);
    }
    if (row.childNodes.length) box.append(row);
    if (deadwood.length) box.append(tablePage.deadwoodGroup("Deadwood", deadwood));
    return box;
  }

  // ------------------------------------------------------------- drawing

  function render() {
    renderScore();
    tablePage.renderTable(game, game.toAct === HUMAN ? "you" : "bot");
    renderBot();
    renderHand();
    renderKnockTable();
  }

  function renderScore() {
    $("score-you").textContent = String(match.score[HUMAN]);
    $("score-bot").textContent = String(match.score[BOT]);
    $("match-note").textContent = `hand ${match.handNumber} · ${game && game.dealer === HUMAN ? "you deal" : "the bot deals"} · to ${MATCH_TARGET}`;
  }

  function renderBot() {
    const hand = game.hands[BOT];
    const box = $("bot-hand");
    const reveal = game.phase === W.OVER && (game.ending === W.WALL || scored);
    box.classList.toggle("backs", !reveal);
    box.replaceChildren();
    if (reveal) {
      for (const card of sorted(hand)) box.append(cardElement(card, { small: true }));
    } else {
      for (let i = 0; i < hand.length; i++) box.append(span("card back small", ""));
    }
    $("bot-count").textContent = `${hand.length} cards`;
    box.setAttribute("aria-label", reveal ? `The bot's hand: ${cards(hand)}` : `The bot holds ${hand.length} cards`);
  }

  function renderHand() {
    const hand = sorted(game.hands[HUMAN]);
    const box = $("your-hand");
    box.replaceChildren();
    const mine = tablePage.humansTurn(game);
    const discarding = mine && game.phase === W.AFTER_DRAW;
    const taken = game.takenThisTurn;
    for (const card of hand) {
      const legal = discarding && !game.mustKnock && card !== taken;
      const node = tablePage.handCard(card, drawnCard);
      if (legal) {
        node.dataset.action = W.DISCARD;
        node.dataset.move = W.DISCARD;
        node.setAttribute("aria-label", `Discard the ${node.getAttribute("aria-label")}`);
        node.title = `Discard ${shortName(card)}`;
        node.addEventListener("click", tablePage.singleClick(() => humanPlay({ action: W.DISCARD, card })));
      } else {
        tablePage.lockCard(node, card, discarding && card === taken);
      }
      box.append(node);
    }
    $("your-count").textContent = `${hand.length} cards` + (knocks && game.phase === W.AFTER_DRAW && mine
      ? ` · best deadwood after a discard: ${knocks.min_deadwood}` : "");
  }

  /** The buttons of the human's moves other than discards (null: still being worked out). */
  function renderMoves(moves) {
    const box = tablePage.moveButtons(moves, {
      kind: (move) => (move.action === W.KNOCK || move.action === W.LAY_OFF ? "primary" : ""),
      words: (move) => moveWords(move, { phase: game.phase })
        + (move.action === W.KNOCK && !move.gin ? ` (deadwood ${move.deadwoodPoints})` : ""),
      play: humanPlay,
    });
    if (moves && game.phase === W.LAYOFF && moves.length) box.prepend(replyPreview(moves[0]));
  }

  function replyPreview(move) {
    const box = element("div", "reply");
    box.dataset.testid = "reply";
    const targets = game.knock.melds;
    box.append(element("p", "note", `Your best reply: deadwood ${reply.best.deadwood_points}.`));
    box.append(sideBox("Your melds and layoffs", reply.best.melds, reply.best.layoffs,
      move.deadwood, null, "reply", targets.map((m) => ({ cards: m }))));
    return box;
  }

  function renderKnockTable() {
    const box = $("knock-table");
    const knock = game.knock;
    if (!knock || scored) {
      box.hidden = true;
      return;
    }
    box.replaceChildren(element("h4", null, `${who(knock.player)} knocked: the table`));
    const row = element("div", "melds");
    knock.melds.forEach((meld) => {
      const figure = element("figure", "meld");
      figure.append(cardRow(meld, { small: true }));
      row.append(figure);
    });
    box.append(row);
    if (knock.deadwood.length) {
      box.append(tablePage.deadwoodGroup("Deadwood", knock.deadwood));
    } else {
      box.append(element("p", "note", "Gin: no deadwood, nothing to lay off."));
    }
    box.hidden = false;
  }

  function logMove(seat, move, phase, drawn) {
    const text = moveWords(move, { seat, phase }) + (seat === HUMAN && drawn ? ` (${shortName(drawn)})` : "");
    let entry = null;
    if (move.action !== W.LAY_OFF) {
      const event = game.history[game.history.length - 1];
      entry = tablePage.historyEntry(event, event.player === HUMAN ? "you" : "the bot")
        + (event.melds ? `, deadwood ${cards(event.deadwood) || "none"}` : "");
    }
    tablePage.logMove(seat, text, SHOWN_MOVES, entry);
  }

  // ------------------------------------------------------------------ hint

  const clearHint = tablePage.clearHint;

  function hint() {
    if (!tablePage.humansTurn(game)) return;
    const at = epoch;
    const body = game.adviceRequest(HUMAN, { level: match.hintLevel, score: match.score });
    tablePage.askHint(body, match.hintLevel, () => at === epoch, renderAdvice);
  }

  /** Every move the advisor ranked: the recommended first and marked, a bar per move. */
  function renderAdvice(advice) {
    tablePage.renderAdvice(advice, {
      words: (move) => moveWords(move, { phase: advice.phase }),
      play: (move) => humanPlay(fromAdvice(move)),
    });
  }

  /** The advisor's move as the referee plays it. */
  function fromAdvice(move) {
    const played = { action: move.action };
    if (move.card) played.card = move.card;
    if (move.action === W.KNOCK || move.action === W.LAY_OFF) {
      played.melds = move.melds || [];
      played.deadwood = move.deadwood || [];
    }
    if (move.action === W.LAY_OFF) played.layoffs = move.layoffs || [];
    return played;
  }

  // ---------------------------------------------------------------- wiring

  function wire() {
    const restart = (seed) => {
      match.seed = seed;
      match.handNumber = 1;
      match.score = [0, 0];
      startHand();
    };
    tablePage.wireControls({
      settings: match, hint, changed: syncUrl, restart, refuse, seedMax: SEED_MAX, randomSeed,
      newId: "new-match", randomId: "random-match",
    });
  }

  function start() {
    readUrl();
    $("match-target").textContent = String(MATCH_TARGET);
    wire();
    document.body.dataset.ready = "true";
    startHand();
  }

  start();
})();

// The Review panel of the game pages (gin.js, indian.js): once a hand or deal is over, its
// Review button sends the referee's record of it (the whole deal and every action; see
// docs/REVIEW.md) to POST /v1/review and shows the answer: each player's figures, a graph of
// each player's points lost so far decision by decision (an inline SVG, a line per seat), every
// decision's label and loss, and on a click the best move against the one played, their values
// and the reason.  The page says how its players and moves are written; the panel's elements
// are the page's (#review, #review-status, #review-summary, #review-graph-box, #review-graph,
// #review-decisions, #review-detail).
// A classic script: it defines `RummyReviewPanel` (it needs cards.js and table-api.js).
"use strict";

(() => {
  const { cardRow, shortName, symbolize, sortKey, element, span } = window.RummyCards;
  const { api, describeError } = window.RummyTableApi;

  const SVG = "http://www.w3.org/2000/svg";
  const CENTRED = "middle"; // the SVG text-anchor of the graph's centred labels (not a drop stage)
  const LEGEND_STEP = 70; // the graph's legend: one name per seat, this far apart

  const $ = (id) => document.getElementById(id);

  /** "+2.5", "−3.0", "0.0". */
  function signed(value, digits = 1) {
    return (value > 0 ? "+" : value < 0 ? "−" : "") + Math.abs(value).toFixed(digits);
  }

  /**
   * The panel of a page whose human sits at seat `human`:
   * - `who(seat)`: the player in words ("You", "The bot", "Bot 2");
   * - `seatClass(seat)`: the CSS classes of its line in the graph and its rows in the list;
   * - `moveWords(move, {seat, phase})`: a move in words (`seat` null: no subject);
   * - `round`: what is reviewed, in words ("hand", "deal");
   * - `record()`: the body of POST /v1/review, the recorded game (null: not over yet);
   * - `epoch()`: the page's state counter: an answer for an older state is dropped.
   * Returns `{clear, button}`: `clear()` empties and hides the panel, `button()` is a new
   * Review button for the outcome box.
   */
  function create({ who, seatClass, moveWords, round, record, epoch, human = 0 }) {
    let button = null;

    function clear() {
      const panel = $("review");
      panel.hidden = true;
      panel.dataset.state = "empty";
      $("review-status").textContent = "";
      $("review-summary").replaceChildren();
      $("review-graph").replaceChildren();
      $("review-graph-box").hidden = true;
      $("review-decisions").replaceChildren();
      $("review-detail").replaceChildren();
      $("review-detail").hidden = true;
    }

    function makeButton() {
      button = element("button", "", `Review this ${round}`);
      button.type = "button";
      button.dataset.testid = "review-button";
      button.title = "Every decision of every player against the advisor's best (POST /v1/review)";
      button.addEventListener("click", review);
      return button;
    }

    /** Send the record to POST /v1/review and show the answer.  The record holds the whole
     * deal: the referee writes it only once the hand is over. */
    async function review() {
      const body = record();
      if (!body) return;
      const at = epoch();
      const mine = button;
      clear();
      const panel = $("review");
      panel.hidden = false;
      panel.dataset.state = "busy";
      mine.disabled = true;
      $("review-status").textContent = `Reviewing every decision of the ${round} (POST /v1/review)…`;
      panel.scrollIntoView({ block: "nearest" });
      let answer;
      try {
        answer = await api("v1/review", body);
      } catch (err) {
        if (at !== epoch()) return;
        panel.dataset.state = "error";
        $("review-status").textContent = describeError(err, `Reviewing the ${round} (POST /v1/review)`);
        mine.disabled = false; // to try again
        return;
      }
      if (at !== epoch()) return;
      mine.disabled = false;
      render(answer);
    }

    function render(answer) {
      const decisions = answer.decisions;
      const cut = answer.complete ? "" : " (cut short by the deadline: the rest are not reviewed)";
      $("review-status").textContent = `${answer.reviewed} of ${answer.total} decision${answer.total === 1 ? "" : "s"} reviewed at level `
        + `${answer.level}${cut}. Losses are against the advisor's best move, valued from what the player knew then.`;
      const summary = $("review-summary");
      for (const player of answer.players) {
        const line = element("p", `review-player ${seatClass(player.seat)}`);
        line.dataset.testid = "review-player";
        line.dataset.seat = String(player.seat);
        const labels = Object.entries(player.labels).filter(([, n]) => n).map(([label, n]) => `${n} ${label}`);
        const accuracy = player.accuracy === null ? "" : `accuracy ${player.accuracy.toFixed(0)}, `;
        line.append(element("b", null, who(player.seat)), document.createTextNode(
          `: ${accuracy}${player.points_lost.toFixed(1)} points lost over ${player.decisions} decision${player.decisions === 1 ? "" : "s"}`
          + (labels.length ? ` (${labels.join(", ")})` : "")));
        summary.append(line);
      }
      if (decisions.length) {
        const seats = 1 + Math.max(...decisions.map((d) => d.seat), ...answer.players.map((p) => p.seat));
        $("review-graph").replaceChildren(graph(decisions, seats));
        $("review-graph-box").hidden = false;
      }
      const list = $("review-decisions");
      decisions.forEach((decision, i) => list.append(decisionItem(decision, i)));
      $("review").dataset.state = "done";
    }

    /** Each player's points lost so far, decision by decision: one point per decision of that
     * player at its place in the order played, a line per seat. */
    function graph(decisions, seats) {
      const width = 340;
      const height = 170;
      const pad = { left: 40, right: 10, top: 22, bottom: 34 }; // the legend above the plot
      const totals = new Array(seats).fill(0);
      const points = decisions.map((d, i) => {
        totals[d.seat] += d.points_lost ?? 0;
        return { i, seat: d.seat, total: totals[d.seat], decision: d };
      });
      const values = [0, ...points.map((p) => p.total)];
      const top = Math.max(1, ...values);
      const bottom = Math.min(0, ...values);
      const last = Math.max(1, decisions.length - 1);
      const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / last;
      const y = (v) => pad.top + ((top - v) * (height - pad.top - pad.bottom)) / (top - bottom);
      const node = (tag, attrs, text) => {
        const item = document.createElementNS(SVG, tag);
        for (const [name, value] of Object.entries(attrs)) item.setAttribute(name, String(value));
        if (text !== undefined) item.textContent = text;
        return item;
      };
      const svg = node("svg", {
        viewBox: `0 0 ${width} ${height}`, class: "review-graph", role: "img",
        "aria-label": "Points lost so far by each player, decision by decision",
      });
      svg.append(node("title", {}, "Points lost so far by each player, decision by decision"));
      const axes = node("g", { class: "axes" });
      axes.append(node("line", { x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom }));
      axes.append(node("line", { x1: pad.left, y1: y(0), x2: width - pad.right, y2: y(0) }));
      for (const v of new Set([bottom, 0, top])) {
        axes.append(node("text", { x: pad.left - 4, y: y(v) + 3, "text-anchor": "end" }, v.toFixed(v % 1 ? 1 : 0)));
      }
      for (const i of new Set([0, decisions.length - 1])) {
        axes.append(node("text", { x: x(i), y: height - pad.bottom + 12, "text-anchor": CENTRED }, String(i + 1)));
      }
      axes.append(node("text", { x: (pad.left + width - pad.right) / 2, y: height - 4, "text-anchor": CENTRED,
        "data-testid": "graph-x-label" }, "decision, in the order played"));
      axes.append(node("text", { x: 10, y: (pad.top + height - pad.bottom) / 2, "text-anchor": CENTRED,
        transform: `rotate(-90 10 ${(pad.top + height - pad.bottom) / 2})`, "data-testid": "graph-y-label" },
      "points lost so far"));
      svg.append(axes);
      let shown = 0;
      for (let seat = 0; seat < seats; seat++) {
        const mine = points.filter((p) => p.seat === seat);
        if (!mine.length) continue;
        const line = [[x(0), y(0)], ...mine.map((p) => [x(p.i), y(p.total)])].map((xy) => xy.join(",")).join(" ");
        const group = node("g", { class: `series ${seatClass(seat)}`, "data-testid": "graph-series", "data-seat": seat });
        group.append(node("polyline", { points: line }));
        for (const p of mine) {
          const circle = node("circle", {
            cx: x(p.i), cy: y(p.total), r: 3.5, class: `label-${p.decision.label ?? "unvalued"}`,
            "data-testid": "graph-point", "data-seat": seat, "data-number": p.decision.number,
          });
          circle.append(node("title", {}, `${p.i + 1}. ${who(seat)}: ${p.total.toFixed(1)} points lost so far`));
          group.append(circle);
        }
        svg.append(group);
        // The legend: a stroke of the seat's line, then its name.
        const at = pad.left + LEGEND_STEP * shown;
        const legend = node("g", { class: `legend ${seatClass(seat)}`, "data-testid": "graph-legend", "data-seat": seat });
        legend.append(node("line", { x1: at, y1: 7, x2: at + 14, y2: 7 }));
        legend.append(node("text", { x: at + 18, y: 10 }, who(seat)));
        svg.append(legend);
        shown += 1;
      }
      return svg;
    }

    function decisionItem(decision, index) {
      const item = element("li", `review-item ${seatClass(decision.seat)}`);
      const label = decision.label ?? "unvalued";
      const row = element("button", `review-decision label-${label}`);
      row.type = "button";
      row.dataset.testid = "review-decision";
      row.dataset.seat = String(decision.seat);
      row.dataset.number = String(decision.number);
      row.dataset.label = label;
      row.setAttribute("aria-pressed", "false");
      const tag = span(`review-label label-${label}`, label);
      tag.dataset.testid = "review-label";
      const lost = span("review-loss", decision.points_lost === null ? "not valued"
        : decision.points_lost === 0 ? "0" : `${signed(-decision.points_lost)} pts`);
      lost.dataset.testid = "review-loss";
      row.append(span("review-number", `${index + 1}.`),
        span("review-move", moveWords(decision.played, { seat: decision.seat, phase: decision.phase })
          + (decision.drawn ? ` (${shortName(decision.drawn)})` : "")),
        tag, lost);
      row.addEventListener("click", () => showDecision(decision, index, row));
      item.append(row);
      return item;
    }

    /** One decision's moves: the advisor's best and the move played, their values, the loss
     * and the reason, as the review answered them. */
    function showDecision(decision, index, row) {
      for (const other of $("review-decisions").querySelectorAll("[aria-pressed=true]")) {
        other.setAttribute("aria-pressed", "false");
      }
      row.setAttribute("aria-pressed", "true");
      const box = $("review-detail");
      box.replaceChildren();
      box.dataset.number = String(decision.number);
      const phase = decision.phase;
      box.append(element("h3", null, `Decision ${index + 1}: ${who(decision.seat)}, ${decision.kind.replace(/_/g, " ")}`));
      const hand = element("div", "group");
      hand.append(element("h4", null, decision.seat === human ? "Your cards then" : `${who(decision.seat)}'s cards then`),
        cardRow([...decision.hand].sort((a, b) => sortKey(a) - sortKey(b)), { small: true }));
      box.append(hand);
      const ranking = element("ol", "review-ranking");
      ranking.dataset.testid = "review-ranking";
      const same = JSON.stringify(decision.played) === JSON.stringify(decision.best)
        || (decision.label === "best");
      const rank = (move, value, marks) => {
        const li = element("li", `review-rank ${marks.join(" ")}`);
        li.dataset.testid = "review-rank";
        li.dataset.action = move.action;
        if (move.card) li.dataset.card = move.card;
        li.append(span("review-rank-move", moveWords(move, { phase })),
          span("review-rank-value", value === null || value === undefined ? "not valued" : `${signed(value)} pts expected`),
          span("review-rank-marks", marks.join(" · ")));
        return li;
      };
      ranking.append(rank(decision.best, decision.value, same ? ["best", "played"] : ["best"]));
      if (!same) ranking.append(rank(decision.played, decision.played_value, ["played"]));
      box.append(ranking);
      const facts = [`${decision.moves} legal move${decision.moves === 1 ? "" : "s"} valued${decision.forced ? " (forced)" : ""}`];
      if (decision.loss !== null && decision.label !== "best") {
        facts.push(decision.units === "match"
          ? `loss ${(100 * decision.loss).toFixed(1)} % of the match (${decision.points_lost.toFixed(1)} points)`
          : `loss ${decision.loss.toFixed(1)} points` + (decision.loss_error ? ` (± ${decision.loss_error.toFixed(1)})` : ""));
      }
      if (decision.label && decision.sure !== null) facts.push(`${decision.label}, ${(100 * decision.sure).toFixed(0)} % sure`);
      facts.push(`figures: ${decision.confidence}`);
      box.append(element("p", "note", facts.join(" · ")));
      const reason = element("p", "review-reason", symbolize(decision.reason));
      reason.dataset.testid = "review-reason";
      box.append(reason);
      box.hidden = false;
      box.scrollIntoView({ block: "nearest" });
    }

    return { clear, button: makeButton };
  }

  window.RummyReviewPanel = Object.freeze({ create, signed });
})();

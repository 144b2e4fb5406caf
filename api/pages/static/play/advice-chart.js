// The Hint panel of the game pages (gin.js, indian.js): every legal move the advisor ranked,
// as a bar of its expected points with its win chance, how sure the figure is and the
// advisor's reasons, and under the list the rule the moves are ranked by; tapping a move plays
// it.  How sure: each move's `confidence` in the answer ("exact"; "ranked": compared by the
// search on the same deals as the recommendation; "rough": valued on a few deals only, marked
// and muted), or from an answer without it, its `searched` flag (false: rough), or from one
// without that either, fewer than ROUGH_SAMPLES deals.  The rule is the answer's `ranking`
// (its `ranked_by`, expected points or the match, marks the figure it compares); an answer
// without them shows no rule.  A classic script: it defines `RummyAdviceChart` (it needs
// cards.js).
"use strict";

(() => {
  const { element, symbolize } = window.RummyCards;

  const ROUGH_SAMPLES = 20; // fewer simulated deals than this: rough, for an answer that does not say
  const BASIS_FIGURE = { expected_points: "advice-points", match_win_probability: "advice-match" };

  /** How sure a move's figures are: "exact", "ranked" or "rough" (see the file's head). */
  function confidenceOf(value) {
    if (value.confidence) return value.confidence;
    if (value.exact) return "exact";
    if (value.searched === false) return "rough";
    if (value.searched === true) return "ranked";
    return value.samples < ROUGH_SAMPLES ? "rough" : "ranked";
  }

  /** "+2.5", "−3.0", "±0.0". */
  function points(value) {
    const rounded = Math.round(value * 10) / 10;
    return `${rounded > 0 ? "+" : rounded < 0 ? "−" : "±"}${Math.abs(rounded).toFixed(1)}`;
  }

  function percent(value) {
    return `${Math.round(value * 100)}%`;
  }

  /**
   * Draw `advice` (POST /v1/advise's answer) into the list `list`, the rule it is ranked by into
   * `ranking` (hidden when the answer gives none), mark `panel` done and say the advisor's
   * choice in `status`.  `words(move)` is a move in words, `marks(move)` extra CSS classes of
   * its row (may be ""), `play(move)` what tapping it does; the status line names the
   * recommended move with `statusWords` (default `words`).
   */
  function renderAdvice(advice, { list, ranking, panel, status, words, marks = () => "", play,
                                  statusWords = words }) {
    const values = advice.moves.map((m) => m.expected_points);
    const low = Math.min(0, ...values);
    const high = Math.max(0, ...values);
    const range = high - low || 1;
    const at = (v) => ((v - low) / range) * 100;
    list.replaceChildren();
    advice.moves.forEach((value, rank) => {
      const move = value.move;
      const said = words(move);
      const confidence = confidenceOf(value);
      const rough = confidence === "rough";
      const item = element("li", "advice-move" + (rank === 0 ? " recommended" : "") + (rough ? " rough" : "")
        + marks(move));
      item.dataset.testid = "advice-move";
      item.dataset.action = move.action;
      if (move.card) item.dataset.card = move.card;
      item.dataset.rank = String(rank + 1);
      item.dataset.expected = String(value.expected_points);
      item.dataset.confidence = confidence;
      const button = element("button", "advice-play");
      button.type = "button";
      button.dataset.testid = "advice-play";
      const label = element("span", "advice-label");
      label.append(element("span", "advice-rank", rank === 0 ? "Best" : `#${rank + 1}`),
        element("span", "advice-words", said));
      const track = element("span", "bar-track");
      track.setAttribute("aria-hidden", "true");
      const zero = element("span", "bar-zero");
      zero.style.left = `${at(0)}%`;
      const bar = element("span", "bar" + (value.expected_points < 0 ? " negative" : "") + (rough ? " rough" : ""));
      bar.dataset.testid = "advice-bar";
      bar.style.left = `${Math.min(at(0), at(value.expected_points))}%`;
      bar.style.width = `${Math.max(Math.abs(at(value.expected_points) - at(0)), 0.5)}%`;
      track.append(zero, bar);
      const figures = element("span", "advice-figures");
      const expected = element("span", "advice-points", `${points(value.expected_points)} pts`);
      expected.dataset.testid = "advice-points";
      figures.append(expected, element("span", null, `win ${percent(value.win_probability)}`));
      if (value.match_win_probability !== null && value.match_win_probability !== undefined) {
        figures.append(element("span", "advice-match", `match ${percent(value.match_win_probability)}`));
      }
      const basis = figures.querySelector(`.${BASIS_FIGURE[advice.ranked_by] || "none"}`);
      if (basis) basis.classList.add("basis");
      const quality = confidence === "exact" ? "exact"
        : `estimated over ${value.samples} deal${value.samples === 1 ? "" : "s"}`
          + (value.standard_error !== null && value.standard_error !== undefined ? ` ± ${value.standard_error.toFixed(1)}` : "")
          + (rough ? " (rough)" : "");
      const exactness = element("span", `advice-quality ${confidence}`, quality);
      exactness.dataset.testid = "advice-quality";
      figures.append(exactness);
      button.append(label, track, figures);
      button.setAttribute("aria-label", `${rank === 0 ? "Recommended: " : ""}${said}: `
        + `${points(value.expected_points)} points expected, win ${percent(value.win_probability)}, ${quality}. Play it.`);
      button.addEventListener("click", () => play(move));
      item.append(button);
      if (value.reasons.length) {
        const reasons = element("ul", "reasons");
        reasons.dataset.testid = "advice-reasons";
        for (const reason of value.reasons) reasons.append(element("li", null, symbolize(reason)));
        item.append(reasons);
      }
      list.append(item);
    });
    if (ranking) {
      ranking.textContent = advice.ranking ? symbolize(advice.ranking) : "";
      ranking.hidden = !advice.ranking;
    }
    panel.dataset.state = "done";
    panel.setAttribute("aria-busy", "false");
    status.textContent = `${statusWords(advice.recommended.move)}: the advisor's choice `
      + `(${advice.level}, ${advice.moves.length} legal move${advice.moves.length === 1 ? "" : "s"}`
      + `${advice.complete ? "" : ", cut short by the deadline"}). Tap a move to play it.`;
  }

  window.RummyAdviceChart = Object.freeze({ ROUGH_SAMPLES, confidenceOf, points, percent, renderAdvice });
})();

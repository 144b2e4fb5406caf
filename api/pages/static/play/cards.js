// Playing cards for the playground's pages: parse what a person typed, draw a card with CSS,
// and write card tokens ("4S", "TH") the way the pages show them ("4♠", "10♥"), in card
// faces and in the sentences the API writes alike.  A classic script (no module loader):
// it defines `RummyCards` for the page scripts loaded after it.
"use strict";

(() => {
  const RANKS = "A23456789TJQK";
  const SUITS = "SHDC";
  const SUIT_SYMBOLS = "♠♥♦♣";
  const SUIT_NAMES = ["spades", "hearts", "diamonds", "clubs"];
  const RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const RANK_NAMES = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];
  const JOKER = "JK";
  // A card token inside a sentence the API wrote ("taking 4S gives ..."): upper case only,
  // standing alone, so words are left as they are.
  const TOKEN_IN_TEXT = /(^|[^A-Za-z0-9])(10|[A2-9TJQK])([SHDC])(?![A-Za-z0-9])/g;

  /** The canonical token ("7H", "TS", "JK") of what the user typed, or null: read as the
   * library reads it, by its grammar (RummyWords.CARDS, from solver/cards.py; words.js). */
  function parseCard(token) {
    const grammar = window.RummyWords.CARDS;
    const known = (table, key) => Object.hasOwn(table, key);
    const text = Array.from(String(token).trim().toUpperCase())
      .filter((char) => !grammar.PRESENTATION.includes(char)).join("");
    if (grammar.JOKERS.includes(text)) return JOKER;
    if (known(grammar.PLAYING_CARDS, text)) return grammar.PLAYING_CARDS[text];
    const chars = Array.from(text);
    if (chars.length < 2) return null;
    let rankText = null;
    let suit;
    const last = chars[chars.length - 1];
    if (known(grammar.SUITS, last)) {
      rankText = chars.slice(0, -1).join("");
      suit = grammar.SUITS[last];
    } else if (known(grammar.SUITS, chars[0])) {
      rankText = chars.slice(1).join("");
      suit = grammar.SUITS[chars[0]];
    }
    if (rankText === null || !known(grammar.RANKS, rankText)) return null;
    return RANKS[grammar.RANKS[rankText]] + SUITS[suit];
  }

  function cardFace(token) {
    if (token === JOKER) {
      return { label: "JK", symbol: "★", name: "joker", short: "JK", red: false, joker: true };
    }
    const rank = RANKS.indexOf(token[0]);
    const suit = SUITS.indexOf(token[1]);
    return {
      label: RANK_LABELS[rank], symbol: SUIT_SYMBOLS[suit], red: suit === 1 || suit === 2,
      name: `${RANK_NAMES[rank]} of ${SUIT_NAMES[suit]}`, short: RANK_LABELS[rank] + SUIT_SYMBOLS[suit],
      joker: false,
    };
  }

  function span(className, text) {
    const node = document.createElement("span");
    node.className = className;
    node.textContent = text;
    return node;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  /** A drawn playing card; `represents` (when it differs) marks a wild card and what it stands for. */
  function cardElement(token, options = {}) {
    const { represents = null, tag = "span", small = false } = options;
    const node = document.createElement(tag);
    node.className = "card" + (small ? " small" : "");
    node.dataset.card = token;
    const known = token === JOKER || parseCard(token) === token;
    if (!known) {
      node.classList.add("unknown");
      node.dataset.testid = "card";
      node.append(span("raw", token));
      node.setAttribute("aria-label", `unknown card ${token}`);
      return node;
    }
    const face = cardFace(token);
    node.classList.add(face.joker ? "joker" : face.red ? "red" : "black");
    node.dataset.testid = "card";
    const corner = span("corner", "");
    corner.append(span("rank", face.label), span("suit", face.joker ? "" : face.symbol));
    node.append(corner, span("pip", face.joker ? "JOKER" : face.symbol));
    let label = face.name;
    if (represents && represents !== token) {
      const meant = cardFace(represents);
      node.classList.add("wild");
      node.dataset.represents = represents;
      const badge = span("badge" + (meant.red ? " red" : ""), `= ${meant.short}`);
      badge.dataset.testid = "wild-badge";
      badge.setAttribute("aria-hidden", "true");
      node.append(badge);
      label += `, wild, stands for the ${meant.name}`;
    }
    if (tag === "span") node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
    node.title = label;
    return node;
  }

  function cardRow(tokens, options = {}) {
    const row = element("div", "cards" + (options.small ? " small" : ""));
    tokens.forEach((token, i) => {
      row.append(cardElement(token, { ...options, represents: options.represents?.[i] ?? null }));
    });
    return row;
  }

  /** How the pages write a card: "TH" -> "10♥"; what is not a card stays as it is. */
  function shortName(token) {
    return token === JOKER || parseCard(token) === token ? cardFace(token).short : token;
  }

  /** A sentence from the API with its card tokens written as the pages write cards. */
  function symbolize(text) {
    return String(text).replace(TOKEN_IN_TEXT, (_, before, rank, suit) =>
      before + shortName((rank === "10" ? "T" : rank) + suit));
  }

  function sortKey(token) {
    if (token === JOKER) return 99;
    return SUITS.indexOf(token[1]) * 13 + RANKS.indexOf(token[0]);
  }

  window.RummyCards = Object.freeze({
    RANKS, SUITS, JOKER, parseCard, cardFace, cardElement, cardRow, shortName, symbolize,
    sortKey, span, element,
  });
})();

// Seeded randomness for the game pages' referees (gin-referee.js, indian-referee.js): the same
// seed deals the same cards in every browser, and a fresh seed comes from the browser's random
// source.  No DOM.  A classic script: it defines `RummySeeded`.
"use strict";

(() => {
  const SEED_MAX = 2 ** 31 - 1;

  /** A 32-bit generator (mulberry32): numbers in [0, 1) from `seed`. */
  function generator(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** One 31-bit number from several (a match seed, a hand or deal number, a turn ...). */
  function mix(...parts) {
    let h = 0x811c9dc5;
    for (const part of parts) {
      h = Math.imul(h ^ (part >>> 0), 0x01000193) >>> 0;
      h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
      h ^= h >>> 15;
    }
    return (h >>> 0) % SEED_MAX;
  }

  /** `cards` shuffled in place (Fisher-Yates) by the generator of `seed`; returns them. */
  function shuffle(cards, seed) {
    const random = generator(seed);
    for (let i = cards.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    return cards;
  }

  /** A seed from the browser's random source, for a new game. */
  function randomSeed() {
    const value = new Uint32Array(1);
    crypto.getRandomValues(value);
    return value[0] % SEED_MAX;
  }

  window.RummySeeded = Object.freeze({ SEED_MAX, generator, mix, shuffle, randomSeed });
})();

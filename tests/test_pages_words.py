"""The playground's ``words.js`` (``api.pages.export_words``): fresh, and the only place the
page scripts spell a game's words.

The referees and page scripts read every action, phase and drop stage from
``RummyWords``; a quoted game word anywhere else in them is a copy that could
drift from ``solver.play.words``.  The few quoted strings that happen to be
spelled like a game word but name something else are listed, with what they
are, in ``NOT_GAME_WORDS``.
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
import subprocess
from collections import Counter

import pytest

from api.pages.assets import ASSET_FILES, STATIC_DIR
from api.pages.export_words import COMMAND, WORDS_JS, render
from solver.cards import InvalidHandError, card_name, parse_card
from solver.play import words

NOT_GAME_WORDS = {
    ("gin.js", "meld"): 2,  # the CSS class of a meld's figure in the outcome
    ("indian.js", "meld"): 1,  # the same, in the show's box
    ("play.js", "meld"): 1,  # a meld's data-testid on the solver page
    ("play.js", "discard"): 3,  # the solver page's discard checkbox (its id) and ?discard= link
    ("review-panel.js", "middle"): 1,  # the review graph's SVG text-anchor, not the drop stage
}
"""(script, word) -> how many quoted strings there spell a game word but are not one."""


def game_words() -> set[str]:
    """Every action, move, phase and drop stage a page could spell."""
    spelled = {words.FIRST_DROP, words.MIDDLE_DROP}
    for family in words.FAMILIES:
        spelled |= set(family.actions) | set(family.moves) | set(family.phases)
    return spelled


def test_words_js_is_up_to_date() -> None:
    expected = render()
    actual = WORDS_JS.read_text(encoding="utf-8") if WORDS_JS.exists() else ""
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            actual.splitlines(keepends=True), expected.splitlines(keepends=True),
            "words.js (committed)", "words.js (generated)"))[:40])
        raise AssertionError(f"api/pages/static/play/words.js is stale: run `{COMMAND}` and "
                             f"commit the result\n{diff}")


def test_words_js_is_served_with_the_pages() -> None:
    assert WORDS_JS.name in ASSET_FILES
    for page in ("gin.html", "indian.html"):
        html = (STATIC_DIR / page).read_text(encoding="utf-8")
        scripts = re.findall(r'<script src="\.\./play-assets/([^"]+)"', html)
        # before the referee that reads it
        assert scripts.index("words.js") < scripts.index(page.replace(".html", "-referee.js"))


def _library_reads(token: str) -> str | None:
    try:
        return card_name(parse_card(token))
    except InvalidHandError:
        return None


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_the_pages_read_every_card_token_as_the_library_does() -> None:
    """The pages' ``parseCard`` (cards.js, by words.js's ``CARDS``) run in Node on the
    tokens a person may type -- every card in its forms, suits drawn as emoji,
    Unicode's playing cards, and what is no card -- reads each as ``parse_card`` does."""
    tokens = []
    for card in range(53):
        name = card_name(card)
        tokens += [name, name.lower(), f" {name} "]
    for rank in ("A", "10", "T", "q", "7"):
        for suit in "♠♥♦♣♤♡♢♧":
            tokens += [rank + suit, suit + rank, rank + suit + "\ufe0f", suit + "\ufe0e" + rank]
    tokens += [chr(code) for code in range(0x1F0A0, 0x1F0E0)]
    tokens += ["JOKER", "joker", "*", "1S", "11H", "AX", "", " ", "JKR", "A", "S", "10", "♥",
               "A♥x", "AS♥", "🃏🃏", "\ufe0f", "constructor", "__proto__", "toString"]
    script = "\n".join([
        "globalThis.window = globalThis;",
        *(f"eval({json.dumps((STATIC_DIR / name).read_text(encoding='utf-8'))});"
          for name in ("words.js", "cards.js")),
        "const tokens = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
        "process.stdout.write(JSON.stringify(tokens.map((t) => window.RummyCards.parseCard(t))));",
    ])
    done = subprocess.run(["node", "-e", script], input=json.dumps(tokens), capture_output=True,
                          text=True, timeout=60, check=True)
    pages = json.loads(done.stdout)
    library = [_library_reads(token) for token in tokens]
    differ = [(token, read, known) for token, read, known in zip(tokens, pages, library, strict=True)
              if read != known]
    assert not differ, differ[:10]
    assert sum(read is not None for read in pages) > len(tokens) // 2


def test_page_scripts_spell_no_game_word_but_words_js() -> None:
    pattern = re.compile(r"""["'`]([a-z_]+)["'`]""")
    spelled: Counter[tuple[str, str]] = Counter()
    for script in sorted(STATIC_DIR.glob("*.js")):
        if script == WORDS_JS:
            continue
        code = "\n".join(line for line in script.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith(("//", "*", "/*")))
        for word in pattern.findall(code):
            if word in game_words():
                spelled[(script.name, word)] += 1
    assert dict(spelled) == NOT_GAME_WORDS, (
        "a page script spells a game word: read it from RummyWords (words.js) instead")

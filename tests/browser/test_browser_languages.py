"""The table in Spanish and in German, at phone size (issue 17): one Iceberg round played
on a phone whose browser asks for Spanish, one Gin hand recorded on a phone that chose
Deutsch at the foot of a page. The scores are the same as in English; the explanations
are the catalogs' sentences, filled in; and no screen on the way shows English left
untranslated.

"No English left" is read against the English catalog (``messages.pot``): every msgid is
cut into the literal phrases between its placeholders, tags and punctuation, and a
page's words (its text with every ``<details>`` opened, and the words it keeps in
attributes: aria-labels, titles, placeholders, the script's words) must contain none
of the phrases long enough to mean something (two words and six letters: "on meld"; or
one word of eight letters standing alone: "Undercuts"), nor a short msgid filled in as a
whole ("knock: 16 − 5 = 11 to Ann"). A phrase the language itself uses (it is in one of
its catalog's translations: "Gin Rummy") and the players' names are not English left
over. An English page fails it on nearly every line; so does one English sentence
slipped into a German page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

from babel.messages.pofile import read_po
from babel.support import Translations
from browser_table import MINUS, PHONE, Phone, number
from playwright.sync_api import expect
from test_browser_counted import shown_scores, tap_hand

CATALOGS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"

# -- the English catalog, as phrases to look for -----------------------------------------

# What a page puts between a msgid's words: a value, a tag, an entity, punctuation, a number.
BETWEEN = re.compile(r"%\(\w+\)[sdr]|%[sdr%]|<[^>]*>|&#?\w+;|\{\w*\}|[^\w\s'’-]|[\d_]")
VALUE = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{\w*\}")
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
PHRASE, WORDY = 6, 8  # the letters of a phrase of two words or more ("on meld"), of a lone word


@dataclass(frozen=True)
class English:
    """One thing that, found on a page, is English left untranslated."""

    shown: str  # the phrase, or the msgid filled in, as the report says it
    pattern: re.Pattern
    msgid: str
    clue: str  # a word it must contain, to skip the regular expression quickly

    def find(self, text: str, folded: str):
        return self.pattern.finditer(text) if self.clue in folded else ()


def _phrase_pattern(words: list[str]) -> re.Pattern:
    return re.compile(r"(?<![\w'’-])" + r"\s+".join(map(re.escape, words)) + r"(?![\w'’-])", re.I)


def _letters(words) -> int:
    return sum(len(w) for w in words)


def _phrases(msgid: str) -> list[list[str]]:
    """The msgid's runs of words between values, tags and punctuation, worth looking for."""
    runs = [WORD.findall(piece) for piece in BETWEEN.split(msgid)]
    return [w for w in runs if (len(w) >= 2 and _letters(w) >= PHRASE) or (len(w) == 1 and _letters(w) >= WORDY)]


def _template(msgid: str) -> re.Pattern | None:
    """A short msgid with values filled in as a whole ("knock: %(a)s − %(b)s = %(p)s to
    %(player)s"), when its own words are too short to be phrases but together say
    something (two words, six letters)."""
    literal = VALUE.split(msgid)
    words = [w for part in literal for w in WORD.findall(part)]
    if len(literal) < 2 or len(words) < 2 or _letters(words) < 6 or "<" in msgid:
        return None
    parts = []
    for piece in literal:
        parts.append(r"\s+".join(re.escape(chunk) for chunk in re.sub(r"\s+", " ", piece).split(" ")))
    body = r"[^\n]{1,60}?".join(parts)
    return re.compile(r"(?<![\w'’-])" + body + (r"(?![\w'’-])" if WORD.search(literal[-1][-1:] or "") else ""),
                      re.I)


@cache
def english_catalog() -> list[English]:
    with open(CATALOGS / "messages.pot", "rb") as f:
        catalog = read_po(f)
    found: dict[str, English] = {}
    for message in catalog:
        if not message.id:
            continue
        for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
            for words in _phrases(msgid):
                shown = " ".join(words)
                key = shown.lower()
                if key not in found or len(msgid) < len(found[key].msgid):  # the likeliest source
                    found[key] = English(shown, _phrase_pattern(words), msgid, max(words, key=len).lower())
            pattern = _template(msgid)
            if pattern and not _phrases(msgid):
                found.setdefault(msgid.lower(), English(msgid, pattern, msgid, max(
                    WORD.findall(VALUE.sub(" ", msgid)), key=len).lower()))
    return list(found.values())


@cache
def own_words(language: str) -> str:
    """Every translation in the language's catalog: the phrases it shares with English."""
    with open(CATALOGS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    said = []
    for message in catalog:
        if message.id and not message.fuzzy:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            said.extend(VALUE.sub("\n", s) for s in strings if s)  # "%(playable)s" is not a word
    return "\n".join(said)


@cache
def shared(language: str) -> frozenset[English]:
    """The English phrases the language uses too: in one of its catalog's translations."""
    own = own_words(language)
    folded = own.lower()
    return frozenset(e for e in english_catalog() if e.clue in folded and e.pattern.search(own))


@cache
def leftovers(language: str, keep: tuple[str, ...] = ()) -> list[English]:
    """The English that, on a page in ``language``, is neither the language's own words
    nor ``keep`` (names: the players', a game's)."""
    names = "\n".join(keep)
    return [e for e in english_catalog() if e not in shared(language) and not e.pattern.search(names)]


def english_in(text: str, language: str, keep: tuple[str, ...] = ()) -> list[str]:
    """Each line of ``text`` with English in it, and the msgids that English comes from."""
    text = re.sub(r"[ \t\u00a0\u202f]+", " ", text)
    folded = text.lower()
    lines: dict[int, set[str]] = {}
    for english in leftovers(language, keep):
        for found in english.find(text, folded):
            lines.setdefault(text.count("\n", 0, found.start()), set()).add(english.msgid)
    said = text.split("\n")
    return [f"{said[n].strip()!r} (English of {' | '.join(map(repr, sorted(lines[n])))})" for n in sorted(lines)]


# The page's words: its text with every <details> opened (and closed again as it was),
# and the words it keeps in attributes (aria-label, title, placeholder, alt, a button's
# value, the script's words for the count and the plays not sent).
PAGE_WORDS = """() => {
  const closed = [...document.querySelectorAll('details:not([open])')];
  closed.forEach((d) => { d.open = true; });
  const words = [document.title, document.body.innerText];
  closed.forEach((d) => { d.open = false; });
  const names = ['aria-label', 'aria-description', 'aria-roledescription', 'title', 'placeholder', 'alt',
                 'data-unsent', 'data-unsent-help', 'data-queued', 'data-count-one', 'data-count-many',
                 'data-count-none'];
  for (const e of document.querySelectorAll('*')) {
    for (const name of names) if (e.hasAttribute(name)) words.push(e.getAttribute(name));
    if (e.matches('input[type=submit], input[type=button], input[type=reset]')) words.push(e.value);
  }
  return words.join('\\n');
}"""


# -- a walk through the screens in one language -------------------------------------------

@dataclass
class Walk:
    """One phone's screens in one language: what English each screen still shows, and
    the catalog's sentences it should show but could not (not yet translated)."""

    page: object
    language: str
    keep: tuple[str, ...]
    english: dict[str, list[str]] = field(default_factory=dict)
    untranslated: list[str] = field(default_factory=list)

    @cached_property
    def translations(self) -> Translations:
        """The compiled catalog, as the server reads it."""
        return Translations.load(str(CATALOGS), [self.language])

    def look(self, screen: str) -> None:
        """This screen is in the language: <html lang>, and no English in its words."""
        expect(self.page.locator("html")).to_have_attribute("lang", self.language)
        found = english_in(self.page.evaluate(PAGE_WORDS), self.language, self.keep)
        if found:
            self.english[screen] = found

    def sentence(self, msgid: str, plural: str | None = None, count: int | None = None, *,
                 capital: bool = False, **values) -> str | None:
        """The catalog's sentence, filled in as a page fills it (``capital``: begun with a
        capital letter, as a clause made a sentence is); None (and noted) if the catalog
        does not translate it yet."""
        t = self.translations
        said = t.ngettext(msgid, plural, count) if plural else t.gettext(msgid)
        if said == (msgid if not plural or count == 1 else plural):
            self.untranslated.append(msgid)
            return None
        said = said % ({"num": count, **values} if plural else values)
        return said[:1].upper() + said[1:] if capital else said

    def expect_sentence(self, locator, msgid: str, plural=None, count=None, **values) -> None:
        said = self.sentence(msgid, plural, count, **values)
        if said is not None:
            expect(locator).to_contain_text(said)

    def assert_all_in_language(self) -> None:
        report = [f"{screen}:\n    " + "\n    ".join(found) for screen, found in self.english.items()]
        if self.untranslated:
            report.append("sentences the catalog does not translate yet:\n    "
                          + "\n    ".join(map(repr, self.untranslated)))
        assert not report, f"English left on the {self.language} screens:\n" + "\n".join(report)


def tap_and_wait(page, locator) -> None:
    with page.expect_navigation():
        locator.tap()


def new_game(page, players, *, variant=None, dealer=0) -> None:
    """The new-game form, in whatever language: the seats by their fields' names."""
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(players):
        form.locator(f"input[name=seat_{i}]").fill(name)
    if variant is None:
        form.locator(f"label:has([data-dealer-seat='{dealer}']) > span").tap()
        expect(form.locator(f"[data-dealer-seat='{dealer}']")).to_be_checked()
    tap_and_wait(page, form.locator("[data-action=create]"))


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"{MINUS}{-points}" if points < 0 else "0"


# -- Spanish: an Iceberg round --------------------------------------------------------------

ANA, BETO, CELIA = SPANISH = ("Ana", "Beto", "Celia")


def test_an_iceberg_round_in_spanish(browser, server):
    """docs/rules/iceberg.md's seed example (A 100, B −120, C −20: the English tests'
    numbers) tapped through the screens of a phone whose browser says Spanish."""
    context = browser.new_context(base_url=server, locale="es-ES", **PHONE)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        walk = Walk(page, "es", SPANISH + ("Iceberg Rummy",))
        page.goto("/games/new")
        walk.look("new game")
        new_game(page, SPANISH, dealer=2)  # Celia deals, Ana starts
        phone = Phone(page)
        phone.key = re.search(r"/g/([^/]+)/table$", page.url).group(1)
        walk.expect_sentence(page.locator("[data-flash]"), "New game. %(dealer)s deals; %(first)s starts.",
                             dealer=CELIA, first=ANA)
        walk.look("the table, round 1")

        turn = page.locator("section[data-turn]")
        expect(turn).to_have_attribute("data-turn", ANA)
        phone.ace("DA")
        phone.tap_cards("S9", "S8", "S7")
        phone.expect_preview(30)
        walk.look("the table, a meld picked")
        phone.confirm()
        phone.pass_turn()
        expect(turn).to_have_attribute("data-turn", BETO)
        phone.meld("DJ", "CJ", points=10)
        phone.pass_turn()
        expect(turn).to_have_attribute("data-turn", CELIA)
        phone.ace("CA")
        phone.lay_off(2, "HJ", points=20)
        phone.tap_meld(1)
        phone.tap_cards("S6")
        phone.expect_preview(40)
        walk.look("the table, a lay-off picked")
        phone.confirm()
        phone.pass_turn()
        expect(turn).to_have_attribute("data-turn", ANA)
        phone.meld("H3", "C3", points=10)
        phone.meld("DQ", "SQ", points=10)
        for player, points in ((ANA, 50), (BETO, 10), (CELIA, 60)):  # before the aces double them
            expect(page.locator(f"[data-round-score='{player}']")).to_have_text(str(points))
        walk.look("the table, before going out")
        phone.out()
        expect(page.locator("h1[data-round-end='1']")).to_be_visible()
        walk.look("the round end, no hand entered")
        phone.enter_hand(BETO, "SK", "SJ", "S3", "HQ", "C6")
        walk.look("the round end, a hand being entered")
        phone.enter_hand(CELIA, "D10", "D9", "D4", "CK", "CQ")

        # The scores are the English tests' scores.
        assert phone.end_scores() == {ANA: 100, BETO: -120, CELIA: -20}
        # Beto's story in Spanish: five cards left in hand (10 each), three playable.
        beto = phone.open_breakdown(BETO)
        walk.expect_sentence(beto.locator("summary").first,
                             "earned %(earned)s, cards in hand %(cards)s, playable %(playable)s",
                             earned=signed(10), cards=signed(-50), playable=signed(-80))
        walk.expect_sentence(beto.locator("h3").nth(1), "Cards left in hand %(points)s", points=signed(-50))
        walk.expect_sentence(beto.locator("h3").nth(2), "Playable %(points)s", points=signed(-80))
        walk.expect_sentence(beto, "How they would have been played in one more turn:")
        expect(beto.locator("[data-card-costs] li")).to_have_count(5)
        expect(beto.locator("[data-playable] li")).to_have_count(3)
        expect(beto.locator("[data-last-turn] li")).to_have_count(3)
        # Celia's: her ace, in Spanish.
        celia = phone.open_breakdown(CELIA)
        walk.expect_sentence(celia.locator("summary").first,
                             "earned %(earned)s, cards in hand %(cards)s, playable %(playable)s, %(num)s ace",
                             "earned %(earned)s, cards in hand %(cards)s, playable %(playable)s, %(num)s aces",
                             1, earned=signed(60), cards=signed(-50), playable=signed(-20))
        walk.look("the round end, both hands in, stories open")

        phone.tap_and_wait(page.locator("[data-action=confirm-round]"))
        walk.expect_sentence(page.locator("[data-flash]"),
                             "Round %(n)s counted. Round %(next)s: %(dealer)s deals, %(player)s starts.",
                             n=1, next=2, dealer=ANA, player=BETO)
        assert phone.totals() == {ANA: 100, BETO: -120, CELIA: -20}
        walk.look("the table, round 2")

        page.goto(phone.url)
        row = page.locator("table[data-rounds] tr[data-round='1']")
        assert {p: number(row.locator(f"td[data-player='{p}']").inner_text()) for p in SPANISH} == {
            ANA: 100, BETO: -120, CELIA: -20}
        walk.look("the game page")
        phone.tap_and_wait(row.get_by_role("link"))
        phone.open_breakdown(BETO)
        walk.look("round 1, counted")
        walk.assert_all_in_language()
    finally:
        context.close()


# -- German: a Gin hand ---------------------------------------------------------------------

JÖRG, LENA = GERMAN = ("Jörg", "Lena")
# Jörg knocks with 8 (8♦) beside 2-3-4♠, three 9s, three kings; Lena melds 5-6-7♥,
# 10-J-Q♣, 3-4-5♦ and lays A♠ off on the run: 0 left, an undercut: 8 − 0 + 10 = 18 to Lena.
KNOCKER = "S2 S3 S4 H9 D9 C9 SK HK DK D8".split()
DEFENDER = "H5 H6 H7 C10 CJ CQ D3 D4 D5 SA".split()


def test_a_gin_hand_in_german(page):
    """A phone (its browser in English) taps Deutsch at the foot of the new-game page and
    records an undercut: the knock, the undercut and its bonus in German."""
    page.goto("/games/new?variant=gin")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    deutsch = page.locator("footer [data-languages] button[value=de]")
    expect(deutsch).to_have_text("Deutsch")
    tap_and_wait(page, deutsch)
    walk = Walk(page, "de", GERMAN + ("Gin Rummy",))
    assert page.url.endswith("/games/new?variant=gin")
    expect(page.locator("footer [data-languages] button[aria-current=true]")).to_have_attribute("value", "de")
    rules = page.locator("details[data-rules]")
    walk.expect_sentence(rules.locator("[data-rule=gin_bonus]"), "Gin bonus")
    walk.expect_sentence(rules.locator("[data-rule=undercut_bonus]"), "Undercut bonus")
    walk.look("new game")
    new_game(page, GERMAN, variant="gin")
    assert re.search(r"/g/\d+-[^/]+/counted/round$", page.url), page.url
    walk.expect_sentence(page.locator("fieldset.who legend"), "Who knocked (or went gin)?")
    walk.look("round 1 to enter")

    page.locator(f"label:has(input[data-ended='{JÖRG}']) > span").tap()
    tap_hand(page, JÖRG, KNOCKER)
    tap_hand(page, LENA, DEFENDER)
    for card in DEFENDER:
        expect(page.locator(f"[data-hand-picker='{LENA}'] input[value='{card}']")).to_be_checked()
    walk.look("round 1, both hands picked")
    tap_and_wait(page, page.locator("[data-action=check-round]"))
    preview = page.locator("[data-preview-result]")
    expect(preview.locator("[data-deadwood='8']")).to_be_visible()
    assert shown_scores(page, "[data-preview-result]") == {JÖRG: 0, LENA: 18}
    ended = preview.locator("[data-ended]")
    walk.expect_sentence(ended, "%(knocker)s knocked, %(defender)s undercut", knocker=JÖRG, defender=LENA)
    walk.expect_sentence(ended, "undercut: %(knocker_deadwood)s − %(deadwood)s + undercut bonus %(bonus)s "
                                "= %(points)s to %(player)s", capital=True,  # a sentence of its own
                         knocker_deadwood=8, deadwood=0, bonus=10, points=18, player=LENA)
    walk.expect_sentence(preview.locator(f"[data-result-player='{JÖRG}'] .role"), "knocker")
    walk.expect_sentence(preview.locator(f"[data-result-player='{LENA}'] .role"), "defender")
    walk.expect_sentence(preview.locator(f"[data-layoffs='{LENA}']"), "Laid off: %(layoffs)s",
                         layoffs=walk.sentence("%(laid)s on %(onto)s", laid="A♠", onto="2♠ 3♠ 4♠") or "")
    walk.expect_sentence(preview.locator("[data-deadwood='8']"), "Deadwood: %(deadwood)s = %(points)s",
                         deadwood="8♦", points=8)
    walk.expect_sentence(preview.locator("[data-deadwood='0']"), "Deadwood: none")
    walk.look("round 1 checked")

    tap_and_wait(page, page.locator("[data-action=save-checked]"))
    expect(page.locator("[data-round-detail='1']")).to_be_visible()
    walk.expect_sentence(page.locator("[data-flash]"), "Round %(n)s saved.", n=1)
    assert shown_scores(page) == {JÖRG: 0, LENA: 18}
    walk.look("round 1 saved")
    page.goto(re.sub(r"/counted/.*$", "/counted", page.url))
    expect(page.locator("[data-total='Lena']")).to_have_text("18")
    expect(page.locator("[data-total='Jörg']")).to_have_text("0")
    walk.look("the game page")
    walk.assert_all_in_language()

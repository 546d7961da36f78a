"""Four-colour suits (issue 25, item 4): a display choice kept per phone (♠ black, ♥ red,
♦ blue, ♣ green), chosen at the foot of the pages other than the table screens; every
card drawn has a name in the page's language for a screen reader ("5 of hearts"); axe
finds nothing at 360 px in both choices (the two colours in English, the four in Spanish
and in German).
"""
from __future__ import annotations

import re

import pytest
from browser_table import Phone
from playwright.sync_api import expect
from test_browser_a11y import axe_reports

NARROW = {"width": 360, "height": 740}
BLUE, GREEN, RED = "rgb(0, 71, 179)", "rgb(10, 107, 47)", "rgb(192, 0, 24)"  # app.css, light


def colour(locator) -> str:
    return locator.evaluate("e => getComputedStyle(e).color")


def choose(page, words: str) -> None:
    with page.expect_navigation():
        page.locator("[data-suit-colours]").get_by_role("button", name=words).tap()


def test_four_colours_are_kept_for_this_phone_and_drawn_on_the_table(page, games):
    phone = Phone(page)
    phone.key = games["playing"]
    phone.goto("")  # the game's page
    choose(page, "Four colours")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour\b"))
    expect(page.locator("[data-suit-colours] [aria-current=true]")).to_contain_text("Four colours")
    phone.goto("/table")  # kept: the table draws its cards so
    expect(page.locator("[data-suit-colours]")).to_have_count(0)  # the table screens are kept small
    diamond = page.locator("[data-log] .k.d").first  # the ace of diamonds face up
    club = page.locator("[data-melds] .k.c").first
    assert colour(diamond) == BLUE and colour(club) == GREEN
    assert colour(page.locator("[data-log] .k.h, [data-melds] .k.h").first) == RED
    assert colour(page.locator(".picker .suit.d b").first) == BLUE
    assert colour(page.locator(".picker .suit.c b").first) == GREEN
    phone.goto("")
    choose(page, "Two colours")
    phone.goto("/table")
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bfour\b"))
    assert colour(page.locator("[data-log] .k.d").first) == RED


def test_every_card_drawn_has_its_name_in_the_page_s_language(page, games):
    phone = Phone(page)
    phone.key = games["playing"]
    phone.goto("/table")
    chip = page.locator("[data-log] .k.d").first
    expect(chip).to_have_attribute("role", "img")
    expect(chip).to_have_attribute("aria-label", "ace of diamonds")
    expect(page.get_by_role("img", name="9 of spades")).not_to_have_count(0)
    page.context.set_extra_http_headers({"Accept-Language": "es"})
    phone.goto("/table")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.locator("[data-log] .k.d").first.get_attribute("aria-label") != "ace of diamonds"
    assert "diamantes" in page.locator("[data-log] .k.d").first.get_attribute("aria-label")


# Each choice and each language once (axe's checks of colour depend on the choice, of
# names and labels on the language; six runs of both pages in both schemes took 30 s).
@pytest.mark.parametrize("choice, language", [("Two colours", "en"), ("Four colours", "es"),
                                              ("Four colours", "de")])
def test_axe_finds_nothing_at_360_px_in_either_choice(page, games, language, choice):
    page.set_viewport_size(NARROW)
    phone = Phone(page)
    phone.key = games["playing"]
    phone.goto("")
    if choice == "Four colours":
        choose(page, choice)
    page.context.set_extra_http_headers({"Accept-Language": language})
    reports = []
    for path in ("", "/table"):
        phone.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", language)
        reports += axe_reports(page, f"{path or 'game'} {language} {choice}")
    page.emulate_media(color_scheme="light")
    assert not reports, "\n".join(reports)


def test_a_colour_choice_keeps_a_space_between_its_words_and_its_suits(page):
    """The buttons are flex boxes, which drop the space at the end of their words: a gap
    keeps "Two colours" apart from ♠♥♦♣ (a tester read "Two colours♠♥♦♣")."""
    page.goto("/")
    for button in page.locator("[data-suit-colours] button").all():
        space = button.evaluate("b => { const r = document.createRange(); r.selectNodeContents(b.firstChild); "
                                "return b.querySelector('span').getBoundingClientRect().left "
                                "- r.getBoundingClientRect().right; }")
        assert space >= 3, space

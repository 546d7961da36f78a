"""A club night in a real browser at phone size (views/nights.py): a group's phone opens a
night of 12 players and plays it over two rounds of tables, three tables each, with
JavaScript off (plain forms and links): each table started in one tap from the suggested
seats, each game played to its end on its own round page; the standings are checked
against the games' own pages, and the second round seats everyone once with as few
people meeting again as can be. Then a phone with JavaScript watches the night's screen
move when a table is abandoned, and axe checks the night's pages."""
from __future__ import annotations

import re
import uuid
from fractions import Fraction
from itertools import combinations

from playwright.sync_api import expect
from test_browser_a11y import assert_accessible
from test_browser_layout import cut_off
from test_browser_tap_targets import MEASURE, MINIMUM, TARGETS

POINTS = (3, 2, 1, 0)


def tap_and_wait(page, locator):
    with page.expect_navigation():
        locator.tap()


def open_group(page, suffix):
    """A phone that starts a game holds its group's edit link: the group's page."""
    page.goto("/games/new?variant=gin")
    form = page.locator("form[data-new-game]")
    form.get_by_label("Player 1", exact=True).fill(f"Host{suffix}")
    form.get_by_label("Player 2", exact=True).fill(f"Guest{suffix}")
    tap_and_wait(page, form.locator("[data-action=create]"))
    page.goto(re.sub(r"/counted/round$", "", page.url))
    tap_and_wait(page, page.locator("[data-action=group]"))


def suggested_tables(page):
    tables = []
    for form in page.locator("form[data-suggested]").all():
        tables.append([i.input_value() for i in form.locator("input[data-seat]").all()])
    return tables


def play_out(page, link):
    """The table's one round of Basic Rummy (target 10): its first player goes out, the
    second is caught with K♠ (the winner takes all: 10, the game won). Its totals (its one
    round's scores) and winner, as the round's page shows them once saved."""
    page.goto(link)
    first = page.locator("[data-ended]").first.get_attribute("data-ended")
    second = page.locator("[data-ended]").nth(1).get_attribute("data-ended")
    page.locator(f"label:has(input[data-ended='{first}']) > span").tap()
    page.locator(f"[data-hand-picker='{second}'] label:has(input[value='SK']:not([data-copy])) b").tap()
    tap_and_wait(page, page.locator("[data-action=save-round]"))
    expect(page.locator("[data-round-detail='1']")).to_be_visible()
    totals = {cell.get_attribute("data-score"): int(cell.inner_text().replace("−", "-"))
              for cell in page.locator("[data-result] [data-score]").all()}
    assert len(totals) == 4 and totals[first] == 10, totals
    return totals, first


def expected_points(games):
    """Placing points by the night's rule, from each game's totals and winner."""
    points: dict[str, Fraction] = {}
    for totals, winner in games:
        order = [[winner]]
        rest = sorted({t for p, t in totals.items() if p != winner}, reverse=True)
        order += [[p for p, t in totals.items() if p != winner and t == total] for total in rest]
        filled = 0
        for group in order:
            share = Fraction(sum(POINTS[i] for i in range(filled, filled + len(group)) if i < len(POINTS)), len(group))
            for p in group:
                points[p] = points.get(p, Fraction(0)) + share
            filled += len(group)
    return points


def shown(points: Fraction) -> str:
    return str(points.numerator) if points.denominator == 1 else f"{float(points):g}"


def play_round_of_tables(page, night, played):
    page.goto(night)
    tables = suggested_tables(page)
    assert [len(t) for t in tables] == [4, 4, 4]
    for n in range(1, 4):  # one tap each; the others' seats stay as suggested
        expect(page.locator("form[data-suggested] legend").first).to_have_text(f"Table {n}")
        tap_and_wait(page, page.locator("[data-action=start-table]").first)
        expect(page.locator("[data-flash]")).to_contain_text("Table started")
        assert suggested_tables(page) == tables[n:]
    links = [a.get_attribute("href") for a in page.locator("[data-action=open-table]").all()[:3]]
    for link in links:
        played.append(play_out(page, link))
    return tables


def test_a_night_of_three_tables_and_twelve_players_over_two_rounds(no_script_page, page, screenshot):
    phone = no_script_page
    suffix = uuid.uuid4().hex[:5]
    names = [f"{n}{suffix}" for n in "Ann Bob Cy Dee Eve Fay Gus Hal Ivy Jo Kai Lu".split()]
    open_group(phone, suffix)
    tap_and_wait(phone, phone.locator("[data-action=new-night]"))
    tap_and_wait(phone, phone.locator("[data-variant-link=rummy]"))
    phone.get_by_label("Name of the night").fill(f"Club {suffix}")
    phone.get_by_label("Who plays tonight: one name a line").fill("\n".join(names))
    phone.locator("details[data-rules] summary").tap()
    phone.get_by_label("Target").fill("10")
    tap_and_wait(phone, phone.locator("[data-action=open-night]"))
    night = phone.url
    assert re.search(r"/group/\d+-[\w-]+/nights/\d+$", night), night

    played: list = []
    first = play_round_of_tables(phone, night, played)
    assert sorted(sum(first, [])) == sorted(names)
    second = play_round_of_tables(phone, night, played)
    assert sorted(sum(second, [])) == sorted(names)
    met = {frozenset(pair) for table in first for pair in combinations(table, 2)}
    assert sum(1 for table in second for pair in combinations(table, 2) if frozenset(pair) in met) == 3

    phone.goto(night)
    expected = expected_points(played)
    rows = phone.locator("tr[data-standing]")
    expect(rows).to_have_count(12)
    for name in names:
        row = phone.locator(f"tr[data-standing='{name}']")
        expect(row.locator("[data-points]")).to_have_text(shown(expected[name]))
        expect(row.locator("[data-games]")).to_have_text("2")
    best = max(expected.values())
    leaders = [n for n in names if expected[n] == best]
    for name in leaders:
        rank = "1" if len(leaders) == 1 else "=1 (tied)"
        expect(phone.locator(f"tr[data-standing='{name}'] td").first).to_have_text(rank)
    screenshot(phone, "night-standings")

    # A phone with JavaScript watches the night's screen; a table abandoned moves it. The
    # screen and the night's page ask every 3 and 5 s (templates: data-board-every): their
    # timers run on a clock the test moves on, to the next time they ask, not waited out.
    page.set_viewport_size({"width": 1280, "height": 720})
    page.clock.install()
    page.goto(night + "/screen")
    expect(page.locator("[data-standings] tr[data-standing]")).to_have_count(12)
    winner = played[3][1]
    before = page.locator(f"tr[data-standing='{winner}'] [data-points]").inner_text()
    phone.goto(night)
    tap_and_wait(phone, phone.locator("li[data-table-number='1'] [data-action=abandon]").first)
    expect(phone.locator("[data-flash]")).to_contain_text("abandoned")
    page.clock.run_for(3_000)  # the screen's next question
    expect(page.locator(f"tr[data-standing='{winner}'] [data-points]")).not_to_have_text(before, timeout=10_000)
    screenshot(page, "night-screen")
    assert_accessible(page, "night screen")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(night)
    assert_accessible(page, "night page")
    # The night's page keeps its standings live too: the table counted again, the points come back.
    tap_and_wait(phone, phone.locator("li[data-table-number='1'] [data-action=count-again]").first)
    page.clock.run_for(5_000)  # the page's next question
    expect(page.locator(f"tr[data-standing='{winner}'] [data-points]")).to_have_text(before, timeout=10_000)
    page.goto(night + "/sheet")
    expect(page.locator("[data-sheet-players] li")).to_have_count(12)
    # At phone size nothing is cut off, and every target on the night's pages is big enough to tap.
    for path in (night, night + "/sheet"):  # the forms of a new night and a table are the new game's
        page.goto(path)
        page.locator("details").evaluate_all("all => all.forEach((d) => { d.open = true; })")
        problems = cut_off(page)
        assert problems == [], (path, problems)
        small = [t for t in page.evaluate(MEASURE, TARGETS) if t["width"] < MINIMUM or t["height"] < MINIMUM]
        assert small == [], (path, small)
    # In Spanish and German too: the standings' longer headings fit.
    for language, heading in (("es", "Clasificación"), ("de", "Tabelle")):
        page.goto(night)
        tap_and_wait(page, page.locator(f"form[data-languages] button[value='{language}']"))
        expect(page.locator("#standings-h")).to_have_text(heading)
        problems = cut_off(page)
        assert problems == [], (language, problems)
        screenshot(page, f"night-{language}")
    page.locator("form[data-languages] button[value='en']").tap()


def test_a_nights_standings_by_scores_fit_a_phone_in_german_and_spanish(page):
    """The standings of a night ranked by summed scores have a column more; in German and
    Spanish their headers ("Gewonnen", "Punktestand", "Puntuación") wrap within their
    columns: nothing cut off, nothing wider than the phone."""
    suffix = uuid.uuid4().hex[:5]
    names = [f"{n}{suffix}" for n in "Ann Bob Cy Dee".split()]
    open_group(page, suffix)
    tap_and_wait(page, page.locator("[data-action=new-night]"))
    tap_and_wait(page, page.locator("[data-variant-link=rummy]"))
    page.get_by_label("Who plays tonight: one name a line").fill("\n".join(names))
    page.locator("label:has(input[name=ranking][value=scores]) > span").tap()
    page.locator("details[data-rules] summary").tap()
    page.get_by_label("Target").fill("10")
    tap_and_wait(page, page.locator("[data-action=open-night]"))
    night = page.url
    tap_and_wait(page, page.locator("[data-action=start-table]").first)
    play_out(page, page.locator("[data-action=open-table]").first.get_attribute("href"))
    page.set_viewport_size({"width": 360, "height": 740})
    for language in ("de", "es"):
        page.goto(night)
        tap_and_wait(page, page.locator(f"[data-languages] button[value={language}]"))
        page.goto(night)
        expect(page.locator("tr[data-standing]")).to_have_count(4)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, language
        assert cut_off(page) == [], language

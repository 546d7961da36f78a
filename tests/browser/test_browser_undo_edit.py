"""Mistakes at the table, put right in the browser: undo, edit, delete; the scores follow."""
from __future__ import annotations

from browser_table import Phone, Routes, scores
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible

NOT_A_MELD = "9♠ 8♥ is not a meld: two cards make a pair only if they are one rank."


def test_undo_edit_and_delete_keep_the_scores_right(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)

    # An illegal play: the preview says why in plain words and Confirm stays off.
    phone.tap_cards("S9", "H8")
    refused = page.locator("[data-preview] [data-ok='0'][role=alert]")
    expect(refused).to_have_text(f"Not allowed: {NOT_A_MELD}")
    expect(page.locator("[data-action=confirm]")).to_be_disabled()
    phone.tap_cards("H8")  # untap the wrong card
    expect(phone.card_input("H8")).not_to_be_checked()
    page.reload()
    expect(page.locator("ol[data-log]")).to_have_count(0)  # nothing was saved
    assert phone.round_scores() == {"A": 0, "B": 0, "C": 0}
    expect(phone.card_input("S9")).to_be_checked()  # still picked on this phone

    phone.meld("S8", "S7", points=30)
    # A wrong play, undone: the log and the score go back.
    phone.meld("H5", "C5", points=10)
    assert phone.round_scores()["A"] == 40
    expect(page.locator("[data-action=undo]")).to_contain_text("Undo")
    phone.undo()
    expect(page.locator("[data-flash]")).to_contain_text("Took back A's meld (5♥ 5♣).")
    expect(phone.log_item(type="meld")).to_have_count(1)
    assert phone.round_scores() == {"A": 30, "B": 0, "C": 0}
    expect(phone.card_input("H5")).to_be_enabled()  # back in the picker
    phone.pass_turn()
    phone.meld("DJ", "CJ", points=10)
    phone.pass_turn()

    # C laid the HJ on B's jacks, but S10 on A's run was logged: corrected through Edit.
    phone.lay_off(1, "S10", points=40)
    assert phone.round_scores() == {"A": 30, "B": 10, "C": 40}
    wrong = phone.log_item(type="layoff", player="C")
    phone.tap_and_wait(wrong.get_by_role("link", name="Edit"))
    expect(page.locator("h1")).to_contain_text("Change")
    phone.tap_meld(2)
    phone.tap_cards("S10", "HJ")  # untap the wrong card, tap the right one
    expect(phone.card_input("S10")).not_to_be_checked()
    expect(phone.card_input("HJ")).to_be_checked()
    phone.tap_and_wait(page.locator("[data-action=check]"))
    preview = page.locator("form#edit [data-ok='1']")
    expect(preview).to_have_attribute("data-moves", scores(20))
    expect(preview).to_contain_text("3rd card")
    phone.tap_and_wait(page.locator("[data-action=save]"))
    expect(page.locator("[data-flash]")).to_contain_text("every score is recomputed")
    fixed = phone.log_item(type="layoff", player="C")
    expect(fixed).to_contain_text("on meld 2")
    expect(fixed).to_contain_text("J♥")
    assert phone.round_scores() == {"A": 30, "B": 10, "C": 20}
    expect(phone.card_input("S10")).to_be_enabled()
    expect(phone.card_input("HJ")).to_be_disabled()

    # Deleting B's pair would leave C's HJ on nothing: refused, with the reason.
    phone.tap_and_wait(phone.log_item(type="meld", player="B").get_by_role("link", name="Edit"))
    phone.tap_and_wait(page.locator("[data-action=delete]"))
    expect(page.locator("[data-error][role=alert]")).to_have_text(
        "C's lay-off (J♥) lies on this meld: change or delete that lay-off first.")
    phone.tap_and_wait(page.get_by_role("link", name="Back to the table"))
    expect(phone.log_item(type="meld", player="B")).to_have_count(1)

    # A play that should not be there at all: deleted, and the scores follow.
    phone.pass_turn()
    phone.meld("H3", "C3", points=10)
    assert phone.round_scores()["A"] == 40
    phone.tap_and_wait(phone.log_item(type="meld", player="A").last.get_by_role("link", name="Edit"))
    phone.tap_and_wait(page.locator("[data-action=delete]"))
    expect(page.locator("[data-flash]")).to_contain_text("Deleted")
    expect(phone.log_item(type="meld", player="A")).to_have_count(1)
    assert phone.round_scores() == {"A": 30, "B": 10, "C": 20}


def test_a_hand_counted_wrong_in_an_earlier_round_is_changed_from_its_page(page):
    """Round 1 counted B holding K♥; B really held 10♠. On round 1's page, at phone size:
    Change B's hand, untap K♥, tap 10♠, save: the page says what changed, B's round and
    the totals follow (10♠ was the run's 4th card: −10 −40), and round 2 goes on."""
    routes = Routes(page)
    routes.new_game(["A", "B"], dealer=1)  # A's turn
    routes.meld("A", "S7", "S8", "S9")
    routes.out("A")
    routes.hand("B", "HK")
    routes.confirm_round(1)
    phone = Phone(page)
    phone.key, phone.game_id = routes.key, routes.game_id
    phone.goto("/rounds/1")
    page.locator("[data-change-hand=B]").tap()
    expect(page.locator("[data-counted-hand]")).to_contain_text("B held K♥")
    expect(phone.card_input("HK")).to_be_checked()
    expect(phone.card_input("S9")).to_be_disabled()  # on round 1's table
    assert_accessible(page, "a counted hand changed")
    phone.tap_cards("HK", "S10")
    page.locator("[data-action=save-hand]").tap()
    expect(page.locator("[data-flash]")).to_contain_text("B's hand K♥ became 10♠: K♥ taken out, 10♠ added.")
    expect(page.locator("[data-score=B]")).to_have_text("−50")
    phone.goto("/table")
    expect(page.locator("[data-scores] td[data-total=B]")).to_have_text("−50")
    expect(page.locator("section[data-turn]")).to_have_attribute("data-round", "2")

"""The end of a round: hands with the picker, the dispute view, the next round, the game end."""
import html
import json
import re

from web_table import seed_round


def test_round_end_is_only_for_a_round_that_is_over(table, client):
    table.new_game(["A", "B"])
    response = client.get(f"{table.url}/end")
    assert response.status_code == 303 and response.headers["Location"].endswith("/table")
    table.hand("B", "S2", round_no=1, expect=303)
    assert "The round is not over yet" in table.page()


def test_hand_picker_disables_table_cards_and_other_hands(table):
    table.new_game(["A", "B", "C"], dealer=2)
    table.meld("A", "S7", "S8", "S9")
    table.out("A")
    table.hand("B", "HK", "HQ")
    html = table.page("/end?player=C")
    assert re.search(r'value=S8 disabled', html)  # on the table
    assert re.search(r'value=HK disabled', html)  # in B's hand
    assert re.search(r'value=CA>', html)  # aces can be left in hand


def test_a_hand_holding_a_card_on_the_table_is_refused(table, db):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.out("A")
    html = table.hand("B", "S8", expect=422).get_data(as_text=True)
    assert "Hands of B: 8♠ appears 2 times in this round, but one deck holds only one; the table has it." in html
    assert db.execute("SELECT count(*) FROM hands").fetchone()[0] == 0


def test_a_hand_with_nothing_picked_says_what_saving_it_records(table):
    table.new_game(["A", "B", "C"], dealer=2)
    table.meld("A", "S7", "S8", "S9")
    table.out("A")
    nothing = "Nothing picked yet: saving now records that B holds no cards."
    assert f'<p class="count" data-tally="cards">{nothing}</p>' in table.page("/end?player=B")
    html = table.hand("C", "S7", expect=422).get_data(as_text=True)  # refused: its card stays picked
    assert '<p class="count" data-tally="cards">1 card: 7♠</p>' in html


def test_a_card_entered_in_two_hands_names_the_other_hand(table, db):
    table.new_game(["A", "B", "C"], dealer=2)
    table.meld("A", "S7", "S8", "S9")
    table.out("A")
    table.hand("B", "HK", "HQ")
    table.hand("C", "D2")
    html = table.hand("C", "HK", expect=422).get_data(as_text=True)
    assert ("Hands of C: K♥ appears 2 times in this round, but one deck holds only one; "
            "B&#39;s hand has it too.") in html
    # Said of the hand being saved, the one entered before it named: B's hand changed now.
    html = table.hand("B", "HK", "D2", expect=422).get_data(as_text=True)
    assert ("Hands of B: 2♦ appears 2 times in this round, but one deck holds only one; "
            "C&#39;s hand has it too.") in html
    assert db.execute("SELECT player, cards FROM hands ORDER BY id").fetchall() == [
        ("B", '["HQ", "HK"]'), ("C", '["D2"]')]
    # The card one too many alone is said: 8♠ lies on the table, and B's K♥ is not it.
    html = table.hand("C", "S8", "HK", expect=422).get_data(as_text=True)
    assert "Hands of C: 8♠ appears 2 times in this round, but one deck holds only one; the table has it." in html


def test_the_one_who_went_out_holds_no_cards(table):
    table.new_game(["A", "B"], dealer=1)
    table.out("A")
    assert "A went out and holds no cards" in table.hand("A", "S2", expect=422).get_data(as_text=True)


def test_confirm_needs_every_hand(table):
    table.new_game(["A", "B", "C"], dealer=2)
    table.out("A")
    table.hand("B", "S2")
    html = table.confirm_round(1, expect=422).get_data(as_text=True)
    assert "Enter the cards left in C’s hand first" in html.replace("'", "’").replace("&#39;", "’")


def test_the_round_end_says_its_scores_are_so_far_until_every_hand_is_entered(table):
    """Issue 25: the strip showed the round's scores before the hands were entered, without
    saying so (Robber's page says so)."""
    so_far = "These scores are so far: a hand not entered yet counts as holding nothing."
    table.new_game(["A", "B", "C"], dealer=2)
    table.meld("A", "S7", "S8", "S9")
    table.out("A")
    html = table.page("/end")
    assert so_far in html and "Round 1 scores so far" in html
    table.hand("B", "S2")
    html = table.page("/end")
    assert so_far in html and "Round 1 scores so far" in html
    table.hand("C", "H2")
    html = table.page("/end")
    assert so_far not in html and "Round 1 scores so far" not in html and "Round 1 scores" in html


def test_dispute_view_explains_every_card(table):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    html = table.page("/end")
    b = re.search(r'<details class="player" data-breakdown="B">.*?\n</details>', html, re.S).group(0)
    plain = re.sub(r"</?span\b[^>]*>", "", b)  # the cards as read, their chips' tags out
    assert "J♠: 4th card on meld 2 (J♥ J♦ J♣): −40" in plain
    assert "3♠: 3rd card on meld 3 (3♥ 3♣): −20" in plain
    assert "Q♥: 3rd card on meld 4 (Q♠ Q♦): −20" in plain
    assert "on meld 3 (3♥ 3♣): 3♠ as 3rd card 20" in plain
    assert plain.count("left in hand: −10") == 5
    # Every card drawn as the pages draw cards, in the reasons and the last turn too: hearts red.
    last_turn = re.search(r"<ol data-last-turn>.*?</ol>", b, re.S).group(0)
    assert '<span class="k r h" role="img" aria-label="3 of hearts">3♥</span>' in last_turn
    c = re.search(r'<details class="player" data-breakdown="C">.*?\n</details>', html, re.S).group(0)
    assert "1 ace: × 2" in c and "<strong>−20</strong>" in c
    a = re.search(r'<details class="player" data-breakdown="A">.*?\n</details>', html, re.S).group(0)
    assert "could have been played" not in a  # A went out: no cards to have played


def test_confirming_starts_the_next_round_with_the_next_dealer(table):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    response = table.confirm_round(1)
    assert response.headers["Location"].endswith("/table")
    html = table.page()
    assert 'data-round="2"' in html
    assert table.dealer() == "A" and table.turn() == "B"
    # The new round's deck is whole again.
    assert re.search(r'value=S8>', html)


def test_undo_after_confirming_reopens_the_round_end(table):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    response = table.undo()
    assert response.headers["Location"].endswith("/end")
    assert table.totals() == {"A": 0, "B": 0, "C": 0}
    assert table.end_scores() == {"A": 100, "B": -120, "C": -20}  # the hands are kept


def test_game_end_at_the_target_names_the_winner(table, client):
    table.new_game(["A", "B", "C"], dealer=2, target=100)
    seed_round(table)
    html = table.page("/end")
    assert "Confirming ends the game: A wins" in html
    response = table.confirm_round(1)
    assert response.headers["Location"].endswith(table.url)
    summary = table.page("")
    assert 'data-winner="A"' in summary and "A wins the game" in summary
    assert "A wins" in table.page("/table") and 'data-game-over' in table.page("/table")
    # No more plays once the game is over.
    assert "The game is over: A wins" in table.meld("B", "S2", "H2", expect=422).get_data(as_text=True)


def test_a_tie_at_the_target_plays_on(table):
    table.new_game(["A", "B"], dealer=1, target=10)
    table.meld("A", "S2", "H2")
    table.meld("B", "S3", "H3")
    table.out("A")
    table.hand("B")
    table.confirm_round(1)
    html = table.page()
    assert 'data-tie' in html and "Tie at the top at 10 or more" in html
    assert 'data-round="2"' in html
    assert "tie at the top" in table.page("").lower()
    table.meld("B", "S4", "H4")  # round 2: A deals, B starts
    table.out("B")
    table.hand("A")
    table.confirm_round(2)
    assert 'data-winner="B"' in table.page("")


def test_last_ace_round_end_counts_every_hand(table):
    table.new_game(["A", "B"], dealer=1)
    for player, card in (("A", "SA"), ("A", "HA"), ("A", "DA"), ("A", "CA")):
        table.ace(player, card)
    table.meld("A", "S7", "S8", "S9")
    html = table.page("/end")
    assert "A exposed the last ace" in html
    table.hand("A", "S2")
    table.hand("B", "S10")
    # A: (30 − 10) × 5 = 100; B: −10 − 40 (S10 as 4th card on A's run) = −50.
    assert table.end_scores() == {"A": 100, "B": -50}
    table.confirm_round(1)
    assert table.totals() == {"A": 100, "B": -50}


def test_the_round_end_of_a_round_counted_already_says_so(table):
    """Back after "Confirm the hands": the round end asked again leads to the table, saying
    the round was counted, not that it is not over yet."""
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    response = table.client.get(f"{table.url}/end")
    assert response.status_code == 303 and response.headers["Location"].endswith("/table")
    html = table.page()
    assert "Round 1 is counted: this is round 2." in html and "not over yet" not in html
    table.meld("B", "S7", "S8", "S9")  # round 2 begun: it is not over yet
    table.client.get(f"{table.url}/end")
    assert "The round is not over yet" in table.page()


def _counted_round_one(table):
    """A and B (A's turn): A melds 7♠ 8♠ 9♠ and goes out; B holds K♥ (−10); round 1 counted,
    round 2 begun with B's pair of threes."""
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.post("/out", {"player": "A"})
    table.hand("B", "HK")
    table.confirm_round(1)
    table.meld("B", "H3", "D3")
    assert table.totals() == {"A": 30, "B": -10}


def test_a_hand_counted_in_an_earlier_round_is_changed_and_every_total_follows(table, client):
    """B really held 10♠: changed on round 1's page, round 1 is scored again (10♠ would have
    been the run's 4th card: −10 −40) and the totals follow; the changes say what the hand
    was, and round 2 goes on as it was."""
    _counted_round_one(table)
    page = table.page("/rounds/1")
    assert 'data-change-hand="B"' in page and 'data-change-hand="A"' not in page  # A went out
    form = table.page("/rounds/1/hand?player=B")
    assert "Counted: B held" in form and re.search(r'value=HK checked', form)
    assert re.search(r'value=S9 disabled', form)  # on round 1's table
    saved = table.post("/rounds/1/hand", {"player": "B", "round_no": "1", "cards": ["S10"], "was": "HK"})
    assert saved.headers["Location"].endswith("/rounds/1")
    said = html.unescape(re.sub(r"<[^>]+>", "", client.get(saved.headers["Location"]).get_data(as_text=True)))
    assert "B's hand K♥ became 10♠: K♥ taken out, 10♠ added." in said
    assert table.totals() == {"A": 30, "B": -50}
    assert re.search(r'data-score="B">−50<', table.page("/rounds/1"))
    changes = html.unescape(re.sub(r"<[^>]+>", "", table.page("/changes")))
    assert "B's hand K♥ became 10♠" in changes and "B −40" in changes
    assert table.page("/table").count('data-type="meld"') == 1  # round 2: B's pair, as it was


def test_a_hand_changed_elsewhere_or_impossible_is_refused_and_nothing_changes(table, client):
    _counted_round_one(table)
    stale = table.post("/rounds/1/hand", {"player": "B", "round_no": "1", "cards": ["S10"], "was": "HQ"}, expect=409)
    stale_said = html.unescape(stale.get_data(as_text=True))
    assert "B's hand was changed on another phone meanwhile: nothing was saved." in stale_said
    on_table = table.post("/rounds/1/hand", {"player": "B", "round_no": "1", "cards": ["S9"], "was": "HK"},
                          expect=422)
    assert "9♠" in html.unescape(on_table.get_data(as_text=True))
    same = table.post("/rounds/1/hand", {"player": "B", "round_no": "1", "cards": ["HK"], "was": "HK"}, expect=422)
    assert "that is the hand counted already" in same.get_data(as_text=True).lower()
    assert table.totals() == {"A": 30, "B": -10}
    for query in ("/rounds/1/hand?player=A", "/rounds/1/hand?player=Zed", "/rounds/2/hand?player=B",
                  "/rounds/9/hand?player=B"):
        assert client.get(table.url + query).status_code == 404, query


def test_a_hand_of_an_imported_game_is_changed_too(client, seed_example):
    """An imported game keeps each hand in its file's order: the page shows it sorted, and
    saving a change is not taken for another phone's change."""
    from test_web_export_import import upload
    made = upload(client, json.dumps(seed_example))
    game = re.fullmatch(r"/g/([\w-]+)", made.headers["Location"]).group(1)
    form = client.get(f"/g/{game}/rounds/1/hand?player=B").get_data(as_text=True)
    was = re.search(r'name="was" value="([^"]*)"', form).group(1)
    saved = client.post(f"/g/{game}/rounds/1/hand", data={"player": "B", "round_no": "1", "was": was,
                                                          "cards": ["SK", "SJ", "HQ", "C6"]})
    assert saved.status_code == 303, saved.get_data(as_text=True)[-500:]

"""The end of a round: hands with the picker, the dispute view, the next round, the game end."""
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

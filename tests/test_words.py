"""Sentences kept as data and read back (games/words.py to_data / from_data): the history
list keeps each game's status so, to show it in each phone's language."""
from scorekeeper.games.cards import parse_card
from scorekeeper.games.words import Cards, Ordinal, Say, SayN, Sentence, Signed, from_data, joined, to_data


def test_a_sentence_kept_as_data_reads_back_the_same():
    said = Sentence(Say("%(what)s: %(cards)s, %(points)s (%(nth)s card); %(rest)s",
                        what=SayN("%(num)s ace", "%(num)s aces", 2), cards=Cards(map(parse_card, ["S9", "HQ"])),
                        points=Signed(-120), nth=Ordinal(3), rest=joined([Say("in progress"), "Ann"])))
    data = to_data(said)
    back = from_data(data, parse_card)
    assert str(back) == str(said) == "2 aces: S9 HQ, −120 (3rd card); in progress; Ann."
    assert to_data(back) == data


def test_a_card_alone_and_plain_values_keep_their_kind():
    said = Say("%(card)s by %(player)s for %(n)s", card=parse_card("D10"), player="Zoë", n=7)
    back = from_data(to_data(said), parse_card)
    assert back.values["card"] == parse_card("D10") and back.values["player"] == "Zoë"
    assert str(back) == "D10 by Zoë for 7"


def test_a_status_saved_before_sentences_were_kept_is_its_english():
    from scorekeeper.storage.kernel import said_status

    assert said_status({"status": "Ann wins", "said_status": None}) == "Ann wins"
    assert str(said_status({"status": "x",
                            "said_status": '{"say": "%(p)s wins", "values": {"p": "Ann"}}'})) == "Ann wins"

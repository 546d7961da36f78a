"""Property tests (hypothesis) on the Iceberg library and the game file.

- A game is its log: replaying the same log gives the same numbers, however the file
  is written (JSON round trip, any accepted card spelling).
- A set or run laid down at once scores what building it card by card scores
  (docs/rules/iceberg.md: the same as building it card by card).
- The best last turn is never below any single legal play of the hand, it can really
  be played, and on small hands it equals an exhaustive search.
- The card parser raises nothing but CardError, and accepts only the documented spellings.
"""
import json
import re
from collections import Counter
from functools import cache
from itertools import combinations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile
from scorekeeper.games import iceberg
from scorekeeper.games.cards import SUITS, Card, CardError, full_deck, parse_card, parse_cards
from scorekeeper.games.errors import IllegalPlay
from scorekeeper.games.iceberg_last_turn import best_last_turn
from scorekeeper.games.iceberg_melds import SPECIAL, SPECIALS, fits, lay_off, lay_off_points, make_meld
from tests.conftest import examples

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
FAST = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])

rule_overrides = st.fixed_dictionaries(
    {},
    optional={
        "aces": st.sampled_from(["multiplier", "bonus", "doubling_bonus"]),
        "ace_bonus": st.integers(0, 50),
        "card_penalty": st.integers(0, 20),
        "card_penalty_applies_to": st.sampled_from(["all", "unplayable"]),
        "playable_penalty": st.sampled_from(["best_turn", "single_card"]),
        "set_duplicates": st.booleans(),
        "special_evens_colour": st.sampled_from([0, 350]),
    },
)


# ---------------------------------------------------------------------------------------
# Random legal play, checked by the library itself.


def spell(card: Card, how: int) -> str:
    """One of the spellings docs/game-file.md accepts for a card."""
    suit, rank = card.suit, card.rank_label
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    forms = [
        suit + rank,
        (suit + rank).lower(),
        rank + suit,
        (rank + suit).lower(),
        rank + symbol,
        symbol + rank,
        suit + ("T" if rank == "10" else rank),
        ("t" if rank == "10" else rank.lower()) + suit.lower(),
    ]
    return forms[how % len(forms)]


def proposal(draw, round_: iceberg.Round, stock: Counter, rules) -> tuple[str, list[Card], int | None] | None:
    """A play that is likely legal: (kind, cards, meld number) from cards still unseen."""
    roll = draw(st.integers(0, 99))
    kind = "ace" if roll < 10 else "set" if roll < 30 else "run" if roll < 50 else "special" if roll < 55 else "layoff"
    available = sorted(stock.elements())
    if kind == "ace":
        aces = [c for c in available if c.is_ace]
        if not aces:
            return None
        return "ace", draw(st.permutations(aces))[: draw(st.integers(1, len(aces)))], None
    if kind == "set":
        rank = draw(st.integers(2, 13))
        same = [c for c in available if c.rank == rank]
        if len(same) < 2:
            return None
        return "meld", draw(st.permutations(same))[: draw(st.integers(2, len(same)))], None
    if kind == "run":
        suit = draw(st.sampled_from(SUITS))
        low = draw(st.integers(2, 11))
        high = draw(st.integers(low + 2, min(13, low + 6)))
        cards = [Card(r, suit) for r in range(low, high + 1)]
        if any(stock[c] < 1 for c in cards):
            return None
        return "meld", draw(st.permutations(cards)), None
    if kind == "special":
        special = draw(st.sampled_from(SPECIALS))
        suits = [draw(st.sampled_from(SUITS))]
        if not special.one_suit:
            colour = {"S": "SC", "C": "SC", "H": "HD", "D": "HD"}[suits[0]]
            suits = [draw(st.sampled_from(colour)) for _ in special.ranks]
        cards = [Card(r, suits[i % len(suits)]) for i, r in enumerate(special.ranks)]
        if Counter(cards) - stock:
            return None
        return "meld", draw(st.permutations(cards)), None
    if not round_.melds:
        return None
    number = draw(st.integers(1, len(round_.melds)))
    meld = round_.melds[number - 1].meld
    left, cards = Counter(stock), []
    for _ in range(draw(st.integers(1, 3))):
        fitting = sorted(c for c in left if left[c] and fits(meld, c, rules))
        if not fitting:
            break
        card = draw(st.sampled_from(fitting))
        meld = lay_off(meld, [card], rules)
        cards.append(card)
        left[card] -= 1
    if not cards:
        return None
    return "layoff", draw(st.permutations(cards)), number


def play_some(draw, round_: iceberg.Round, steps: int) -> tuple[list[dict], Counter]:
    """Play up to ``steps`` legal plays on the round; returns the events and the unseen cards."""
    rules = round_.rules
    stock = full_deck(rules["decks"])
    events = []
    for _ in range(steps):
        players = [round_.last_ace_by] if round_.last_ace_by else round_.players
        player = draw(st.sampled_from(players))
        proposed = proposal(draw, round_, stock, rules)
        if proposed is None:
            continue
        kind, cards, number = proposed
        try:
            if kind == "ace":
                round_.ace(player, cards)
            elif kind == "meld":
                round_.meld(player, cards)
            else:
                round_.lay_off(player, number, cards)
        except IllegalPlay:
            continue  # e.g. a same-suit pair, or duplicates when set_duplicates is false
        stock -= Counter(cards)
        event = {"type": kind, "player": player, "cards": [str(c) for c in cards]}
        if number is not None:
            event["meld"] = number
        events.append(event)
    return events, stock


@st.composite
def iceberg_round(draw, players, rules, finished):
    round_ = iceberg.Round(players, rules)
    events, stock = play_some(draw, round_, draw(st.integers(0, 14)))
    data = {"events": events}
    if finished:
        goes_out = draw(st.sampled_from([None, *([round_.last_ace_by] if round_.last_ace_by else players)]))
        if goes_out:
            events.append({"type": "out", "player": goes_out})
        unseen = draw(st.permutations(sorted(stock.elements())))
        hands = {}
        for player in players:
            if player == goes_out or not draw(st.booleans()):
                continue
            size = 7 - draw(st.integers(0, 7))
            hands[player], unseen = [str(c) for c in unseen[:size]], unseen[size:]
        data["hands"] = hands
    return data


@st.composite
def iceberg_games(draw):
    players = NAMES[: draw(st.integers(2, 5))]
    overrides = draw(rule_overrides)
    # The largest target (1,000,000,000): three rounds never reach it, so any of them is legal.
    overrides["target"] = iceberg.RULES.options["target"].maximum
    rules = iceberg.resolve_rules(overrides, len(players))
    count = draw(st.integers(1, 3))
    rounds = [
        draw(iceberg_round(players, rules, finished=i < count - 1 or draw(st.booleans())))
        for i in range(count)
    ]
    return {
        "format": "scorekeeper/1",
        "variant": "iceberg",
        "rules": overrides,
        "players": players,
        "teams": None,
        "rounds": rounds,
    }


def respelled(doc: dict, how: list[int]) -> dict:
    """The same document with every card written another accepted way."""
    spellings = iter(how * 1000)
    doc = json.loads(json.dumps(doc))
    for data in doc["rounds"]:
        for event in data["events"]:
            if "cards" in event:
                event["cards"] = [spell(parse_card(c), next(spellings)) for c in event["cards"]]
        for player, cards in data.get("hands", {}).items():
            data["hands"][player] = [spell(parse_card(c), next(spellings)) for c in cards]
    return doc


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=iceberg_games(), indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans(),
       how=st.lists(st.integers(0, 7), min_size=1, max_size=8))
def test_replaying_the_same_log_gives_the_same_scores(doc, indent, ascii_only, how):
    first = gamefile.score_document(doc)
    assert gamefile.score_document(doc) == first
    # A JSON round trip of the document (as the app exports and imports it) changes nothing.
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_only)
    assert gamefile.score_document(json.loads(text)) == first
    assert gamefile.score_text(text) == first
    # Nor does writing the cards in any other accepted spelling.
    assert gamefile.score_document(respelled(doc, how)) == first
    # The output itself survives a JSON round trip.
    assert json.loads(json.dumps(first)) == first
    # Totals are the sum of the finished rounds.
    finished = [r["scores"] for r in first["rounds"] if r["finished"]]
    assert first["totals"] == {p: sum(s[p] for s in finished) for p in doc["players"]}


# ---------------------------------------------------------------------------------------
# At once or card by card.


def points_by_formula(n: int) -> int:
    """docs/rules/: a new pair 10; a new meld of n ≥ 3 cards 30 + 40 + … + 10n."""
    return 10 if n == 2 else sum(10 * i for i in range(3, n + 1))


def total_earned(round_: iceberg.Round) -> int:
    return sum(round_.earned(p) for p in round_.players)


@FAST
@given(data=st.data(), rank=st.integers(2, 13), decks=st.sampled_from([1, 2]))
def test_set_at_once_scores_as_pair_then_cards(data, rank, decks):
    copies = [Card(rank, s) for s in SUITS for _ in range(decks)]
    cards = data.draw(st.permutations(copies))[: data.draw(st.integers(3, len(copies)))]
    if cards[0].suit == cards[1].suit:  # a pair's two cards are of different suits
        i = next(i for i, c in enumerate(cards) if c.suit != cards[0].suit)
        cards[1], cards[i] = cards[i], cards[1]
    rules = iceberg.resolve_rules({"decks": decks}, 3)
    players = NAMES[:3]

    at_once = iceberg.Round(players, rules)
    at_once.meld("Ann", cards)

    by_card = iceberg.Round(players, rules)
    by_card.meld(data.draw(st.sampled_from(players)), cards[:2])
    assert total_earned(by_card) == 10
    for i, card in enumerate(cards[2:], 3):
        by_card.lay_off(data.draw(st.sampled_from(players)), 1, [card])
        if i == 3:  # docs/rules/: the 3rd card on a pair scores 20
            assert total_earned(by_card) == 30

    assert total_earned(at_once) == total_earned(by_card) == points_by_formula(len(cards))
    assert at_once.table[0].cards == by_card.table[0].cards


@st.composite
def runs_built_up(draw, max_chunk):
    """A run, its first three cards, and the lay-offs that grow it: (run, core, chunks)."""
    suit = draw(st.sampled_from(SUITS))
    low = draw(st.integers(2, 11))
    high = draw(st.integers(low + 2, 13))
    start = draw(st.integers(low, high - 2))
    core = [Card(r, suit) for r in range(start, start + 3)]
    below = [Card(r, suit) for r in range(start - 1, low - 1, -1)]  # nearest first
    above = [Card(r, suit) for r in range(start + 3, high + 1)]
    chunks = []
    while below or above:
        side = below if not above else above if not below else draw(st.sampled_from([below, above]))
        size = draw(st.integers(1, min(max_chunk, len(side))))
        chunk, side[:] = side[:size], side[size:]
        chunks.append(draw(st.permutations(chunk)))  # lay-off cards may be listed in any order
    run = [Card(r, suit) for r in range(low, high + 1)]
    return draw(st.permutations(run)), draw(st.permutations(core)), chunks


def check_run_built_up(run, core, chunks, data):
    rules = iceberg.resolve_rules({}, 3)
    players = NAMES[:3]
    at_once = iceberg.Round(players, rules)
    at_once.meld("Ann", run)
    built = iceberg.Round(players, rules)
    built.meld(data.draw(st.sampled_from(players)), core)
    for chunk in chunks:
        built.lay_off(data.draw(st.sampled_from(players)), 1, chunk)
    assert total_earned(at_once) == total_earned(built) == points_by_formula(len(run))
    assert at_once.table[0].cards == built.table[0].cards


@FAST
@given(built=runs_built_up(max_chunk=1), data=st.data())
def test_run_at_once_scores_as_three_then_one_card_at_either_end(built, data):
    check_run_built_up(*built, data)


@FAST
@given(built=runs_built_up(max_chunk=4), data=st.data())
def test_run_at_once_scores_as_three_then_several_cards_at_a_time(built, data):
    check_run_built_up(*built, data)


# ---------------------------------------------------------------------------------------
# The best last turn.


@st.composite
def tables_and_hands(draw, max_hand):
    """A final table from legal play, and a hand of unseen cards, often near the table's."""
    overrides = draw(rule_overrides)
    players = NAMES[: draw(st.integers(2, 5))]
    rules = iceberg.resolve_rules(overrides, len(players))
    round_ = iceberg.Round(players, rules)
    _events, stock = play_some(draw, round_, draw(st.integers(0, 12)))
    # Cards close together, so that hands fit the table and each other: a few ranks, or
    # the odd or even ranks of one colour (the special melds).
    if draw(st.booleans()):
        low = draw(st.integers(1, 10))
        pool = sorted(c for c in stock.elements() if low <= c.rank <= low + 4)
    else:
        parity, colour = draw(st.sampled_from([0, 1])), draw(st.sampled_from(["SC", "HD"]))
        pool = sorted(c for c in stock.elements() if c.rank % 2 == parity and c.suit in colour and c.rank > 1)
    hand = draw(st.permutations(pool))[: max_hand - draw(st.integers(0, max_hand))]  # mostly full hands
    return round_.table, hand, rules


def single_plays(hand, table, rules):
    """Every single legal play the hand offers: one card laid off, or one new meld."""
    for card in set(hand):
        for meld in table:
            if meld.kind != SPECIAL and fits(meld, card, rules):
                yield f"{card} on {meld}", lay_off_points(meld, 1)[0]
    for size in range(2, len(hand) + 1):
        for cards in set(combinations(sorted(hand), size)):
            try:
                meld = make_meld(list(cards), rules)
            except IllegalPlay:
                continue
            yield f"new meld {meld}", meld.value(rules)


def replay_plan(turn, table, rules) -> int:
    """Play the best last turn's plan on the final table, checking every step is legal."""
    table = list(table)
    total = 0
    for play in turn.plays:
        if play.meld_number is None:
            meld = make_meld(list(play.cards), rules)
            assert meld.value(rules) == play.points, play
            table.append(meld)
            total += play.points
        else:
            meld = table[play.meld_number - 1]
            assert meld == play.before, play
            points = 0
            for card in play.cards:  # one at a time, in the order the plan places them
                points += lay_off_points(meld, 1)[0]
                meld = lay_off(meld, [card], rules)
            assert points == play.points, play
            table[play.meld_number - 1] = meld
            total += points
    return total


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables_and_hands(max_hand=9))
def test_best_last_turn_is_never_below_a_single_legal_play(case):
    table, hand, rules = case
    turn = best_last_turn(hand, table, rules)
    for what, points in single_plays(hand, table, rules):
        assert turn.points >= points, f"{what} scores {points}, best last turn only {turn.points}"
    assert turn.points >= 0
    assert Counter(turn.used) + Counter(turn.unused) == Counter(hand)
    assert replay_plan(turn, table, rules) == turn.points


def exhaustive_best(hand, table, rules) -> int:
    """The most one turn can score, by trying every sequence of plays (small hands only)."""

    def canonical(melds):
        return tuple(sorted(melds, key=lambda m: (m.kind, m.cards)))

    @cache
    def best(hand, table):
        top = 0
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            for i, meld in enumerate(table):
                if meld.kind != SPECIAL and fits(meld, card, rules):
                    grown = table[:i] + (lay_off(meld, [card], rules),) + table[i + 1:]
                    top = max(top, lay_off_points(meld, 1)[0] + best(tuple(rest), canonical(grown)))
        for size in range(2, len(hand) + 1):
            for cards in set(combinations(hand, size)):
                try:
                    meld = make_meld(list(cards), rules)
                except IllegalPlay:
                    continue
                rest = list((Counter(hand) - Counter(cards)).elements())
                top = max(top, meld.value(rules) + best(tuple(sorted(rest)), canonical(table + (meld,))))
        return top

    return best(tuple(sorted(hand)), canonical(table))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables_and_hands(max_hand=6))
def test_best_last_turn_equals_an_exhaustive_search_on_small_hands(case):
    table, hand, rules = case
    assert best_last_turn(hand, table, rules).points == exhaustive_best(hand, table, rules)


# ---------------------------------------------------------------------------------------
# The card parser.

CARDISH = st.text(alphabet="SHDCshdc♠♥♦♣AaJjQqKkTt0123456789 xX", max_size=6)
# docs/game-file.md, "Cards": suit then rank or rank then suit, any case, T for ten, the suit
# symbols on either side; a joker is JK. (Surrounding blanks are tolerated.)
SUIT = "[SHDCshdc♠♥♦♣]"
RANK = "(?:[2-9]|10|[AaJjQqKkTt])"
DOCUMENTED = re.compile(rf"{SUIT}{RANK}|{RANK}{SUIT}|[Jj][Kk]")


@given(st.text() | CARDISH)
@example("ſ9")
@example("ﬅ")
@settings(max_examples=examples(300), deadline=None)
def test_card_parser_raises_only_card_error(text):
    try:
        card = parse_card(text)
    except CardError as e:
        # the error names the offending text (the start of it, if it is long)
        shown = text if len(text) <= 24 else text[:23]
        assert shown in str(e) or repr(shown) in str(e)
        return
    assert isinstance(card, Card)


@given(st.text() | CARDISH)
@example("ſ9")  # LATIN SMALL LETTER LONG S: its upper case is "S"
@example("ﬅ")  # LATIN SMALL LIGATURE LONG S T: its upper case is "ST"
@settings(max_examples=examples(300), deadline=None)
def test_card_parser_accepts_only_documented_spellings(text):
    """docs/game-file.md: Anything else is an error that names the offending text."""
    try:
        card = parse_card(text)
    except CardError:
        return
    assert DOCUMENTED.fullmatch(text.strip()), f"{text!r} was read as {card}"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text() | CARDISH,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)


@given(json_values)
@settings(max_examples=examples(200), deadline=None)
def test_card_list_parser_raises_only_card_error(value):
    try:
        cards = parse_cards(value)
    except CardError:
        return
    assert cards and all(isinstance(c, Card) for c in cards)


@given(st.sampled_from(sorted(full_deck(1))), st.integers(0, 7))
def test_every_accepted_spelling_reads_back_as_the_card(card, how):
    assert parse_card(spell(card, how)) == card
    assert parse_card(str(card)) == card

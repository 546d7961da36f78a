"""What the games and the game file say is sentences (games/words.py), never English put
together: read through a reader of its own, every word of it comes from a template.

The reader here writes each template in capitals (its placeholders untouched) and an
ordinal as ``#3``; the players are named in capitals too. So a lower-case letter left in
what it shows is English that reached the sentence as plain text. The only lower-case
words allowed are the game file's own names (its fields, event types and variant keys),
which a refusal quotes as they are written in the file.
"""
from __future__ import annotations

import json
import random
import re
from types import SimpleNamespace

import pytest

from scorekeeper import gamefile
from scorekeeper.games import gin, registry, robber
from scorekeeper.games.cards import parse_card
from scorekeeper.games.errors import GameFileError, ScorekeeperError
from scorekeeper.games.variant import COUNTED_AS
from scorekeeper.games.words import Reader, Say

PLACEHOLDER = re.compile(r"(%\(\w+\)s)")
NAMES = ["ANN", "BOB", "CY", "DI", "ED", "FLO"]
# Words of the game file itself, quoted by refusals as the file has them.
FILE_WORDS = {"out", "knocker", "stalemate", "rummy", "renege", "hands", "meld", "layoff", "ace",
              "events", "type", "player", "cards", "scorekeeper", *registry.VARIANTS}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [s + r for s in "SHDC" for r in RANKS]


class Capitals(Reader):
    def gettext(self, template: str) -> str:
        return "".join(part if PLACEHOLDER.fullmatch(part) else part.upper()
                       for part in PLACEHOLDER.split(template))

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.gettext(super().ngettext(singular, plural, count))

    def ordinal(self, n: int) -> str:
        return f"#{n}"


CAPITALS = Capitals()


def english_left(said) -> list[str]:
    """The lower-case words left when ``said`` is read in capitals (none, if every word
    came from a template)."""
    assert isinstance(said, Say), f"not a sentence: {said!r}"
    shown = CAPITALS.value(said)
    return [w for w in re.findall(r"[A-Za-z_]*[a-z][A-Za-z_]*", shown) if w not in FILE_WORDS]


def assert_said(said) -> None:
    assert english_left(said) == [], f"{str(said)!r} read in capitals: {CAPITALS.value(said)!r}"


# ---------------------------------------------------------------------------------------
# Game files of every variant, legal or not, made up from a seed.

def _cards(rng: random.Random, n: int, pool: list[str]) -> list[str]:
    """``n`` cards, mostly from what is left of the round's decks (``pool``)."""
    return [(pool.pop() if pool else "S2") if rng.random() < 0.98 else rng.choice(["JK", "X9", "S1", "S2"])
            for _ in range(n)]


def _meld_cards(rng: random.Random, pool: list[str]) -> list[str]:
    n = rng.randint(1, 7)
    if rng.random() < 0.4:
        suit, low = rng.choice("SHDC"), rng.randint(0, 12)
        return [suit + RANKS[(low + i) % 13] for i in range(n)]
    if rng.random() < 0.6:
        rank = rng.choice(RANKS)
        return [rng.choice("SHDC") + rank for _ in range(n)]
    return _cards(rng, n, pool)


def _pool(rng: random.Random, variant: str) -> list[str]:
    v = registry.get(variant)
    pool = [c for c in DECK if parse_card(c).rank not in getattr(v, "without_ranks", ())]
    pool = pool * getattr(v, "decks", 2) + ["JK"] * getattr(v, "jokers", 0)
    rng.shuffle(pool)
    return pool


def _log_round(rng: random.Random, players: list[str], variant: str) -> dict:
    events, melds, pool = [], 0, _pool(rng, variant)
    for _ in range(rng.randint(0, 12)):
        kind = rng.choice(["meld", "meld", "layoff", "layoff", "out", "ace"])
        player = rng.choice(players) if rng.random() > 0.03 else "ZED"
        if kind == "out":
            events.append({"type": "out", "player": player})
        elif kind == "ace":
            events.append({"type": "ace", "player": player, "cards": [rng.choice("SHDC") + "A"]})
        elif kind == "meld":
            events.append({"type": "meld", "player": player, "cards": _meld_cards(rng, pool)})
            melds += 1
        else:
            events.append({"type": "layoff", "player": player, "cards": _cards(rng, rng.randint(1, 2), pool),
                           "meld": rng.randint(0, melds + 1)})
    data = {"events": events}
    if rng.random() < 0.7:
        data["hands"] = {p: _cards(rng, rng.randint(0, 6), pool) for p in players if rng.random() < 0.8}
    if variant == "robber" and rng.random() < 0.3:
        data["renege"] = rng.sample(players, rng.randint(0, 2))
    return data


def _counted_round(rng: random.Random, players: list[str], variant: str) -> dict:
    data: dict = {}
    r, who, pool = rng.random(), rng.choice(players), _pool(rng, variant)
    if r < 0.6:
        data["knocker" if variant == "gin" and rng.random() < 0.9 else "out"] = who
        data["rummy"] = rng.random() < 0.2
    elif r < 0.8:
        data["stalemate"] = True
    size = {"gin": 10, "conquian": 10}.get(variant, 7)
    data["hands"] = {p: _cards(rng, size if rng.random() < 0.6 else rng.randint(0, 16), pool)
                     for p in players if rng.random() < 0.9 and p != data.get("out")}
    return data


def made_up_game(rng: random.Random) -> dict:
    key = rng.choice(list(registry.VARIANTS))
    variant = registry.get(key)
    players = NAMES[:rng.randint(variant.min_players, variant.max_players)]
    doc = {"format": "scorekeeper/1", "variant": key, "players": players, "rules": {}}
    for option in variant.rules:
        if rng.random() < 0.3 and option.choices:
            doc["rules"][option.name] = rng.choice(list(option.choices))
        elif rng.random() < 0.3 and option.name in ("target", "elimination"):
            doc["rules"][option.name] = rng.choice([1, 10, 30, 60])
    if key == "robber" and len(players) == 4 and rng.random() < 0.5:
        doc["teams"] = [[players[0], players[2]], [players[1], players[3]]]
    round_of = _log_round if variant.recording == "log" else _counted_round
    doc["rounds"] = [round_of(rng, players, key) for _ in range(rng.randint(0, 8))]
    return doc


def sentences_of(game) -> list:
    """Everything a replayed game says: its status, how each round ended and why each
    player scored what they did, its plays and melds, and the game's own words."""
    v = game.variant
    said = [game.said_status(), v.name, v.blurb]
    said += [getattr(v, f) for f in ("how_rounds_end", "how_to_enter", "stalemate_choice") if hasattr(v, f)]
    if hasattr(v, "goal"):
        said += [w for w in (v.goal(game.rules), v.how_won(game.rules)) if w is not None]
    for r in game.rounds:
        if hasattr(r, "said_ended"):  # a counted round
            said += [r.said_ended, r.said_words] + [line for lines in r.stories.values() for line in lines]
            continue
        said += [r.ended, r.words]
        for pr in r.players.values():
            said += pr.story(game.rules) if v.key == "robber" else pr.story()
        said += [p.describe() for p in r.round.plays]
        if v.key == "robber":
            said += [m.meld.describe() for m in r.round.melds] + [h for m in r.round.melds for h in m.history]
        if r.round.end_reason() is not None:
            said.append(r.round.end_reason())
    return said


@pytest.mark.parametrize("seed", range(4))
def test_every_sentence_of_a_game_or_its_refusal_comes_from_templates(seed):
    rng = random.Random(seed)
    replayed = refused = 0
    for _ in range(150):
        doc = made_up_game(rng)
        try:
            game = gamefile.replay(doc)
        except GameFileError as e:
            refused += 1
            assert_said(e.message)
            assert str(e) == str(e.message)
            if e.round_no is not None:  # the reason without its place, in both forms
                assert e.reason == str(e.said_reason) and str(e).endswith(e.reason)
            continue
        replayed += 1
        for said in sentences_of(game):
            assert_said(said)
        out = game.as_json()  # the game file's English: plain text only
        assert json.loads(json.dumps(out)) == out
        assert out["status"] == game.status() == str(game.said_status())
        if hasattr(game.rounds[0] if game.rounds else None, "said_ended"):
            assert [r["ended"] for r in out["rounds"]] == [str(r.said_ended) for r in game.rounds]
            for r, shown in zip(game.rounds, out["rounds"]):
                assert {p: d.get("story") for p, d in shown["detail"].items()} == {
                    p: [str(line) for line in lines] for p, lines in r.stories.items()}
    assert replayed > 20 and refused > 20


def test_the_table_order_and_the_knock_helper_refuse_in_sentences():
    rng = random.Random(7)
    refusals = []
    for _ in range(300):
        rows = [SimpleNamespace(type=t, player=rng.choice(NAMES[:3]),
                                cards=tuple(rng.sample(DECK, 1 if t == "take" and rng.random() < 0.9 else 2)))
                for t in rng.choices(["take", "meld", "layoff", "renege", "pass"], k=rng.randint(1, 6))]
        try:
            robber.check_order(rows, {"renege_penalty": 100})
        except ScorekeeperError as e:
            refusals.append(e.message)
    for _ in range(100):
        try:
            gin.knock_advice([parse_card(c) for c in rng.choices(DECK, k=rng.randint(8, 12))], 10)
        except ScorekeeperError as e:
            refusals.append(e.message)
    assert len({str(m) for m in refusals}) > 20
    for said in refusals:
        assert_said(said)


def test_a_status_names_the_winners_in_a_sentence():
    count = gamefile.CountGame(registry.get("rummy"), NAMES[:3], {}, [], {}, NAMES[:3], {})
    assert count.status() == "ANN and BOB and CY win" and english_left(count.said_status()) == []
    log = gamefile.LogGame(registry.get("robber"), NAMES[:4], {"target": 400}, {}, None, [], {}, [], False, True)
    assert log.status() == "tie at the top at 400 or more: play another hand"
    assert CAPITALS.value(log.said_status()) == "TIE AT THE TOP AT 400 OR MORE: PLAY ANOTHER HAND"


@pytest.mark.parametrize("record", sorted(COUNTED_AS))
def test_a_count_of_records_is_said_with_its_plural(record):
    assert str(COUNTED_AS[record](2)).startswith("2 ") and str(COUNTED_AS[record](2)).endswith("s")
    assert not str(COUNTED_AS[record](1)).endswith("s")
    assert_said(COUNTED_AS[record](3))

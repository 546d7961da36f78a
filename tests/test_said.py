"""What the games, the game file and the stores say is sentences (games/words.py), never
English put together: read through a reader of its own, every word of it comes from a
template.

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

from scorekeeper import gamefile, stats
from scorekeeper.games import gin, registry, robber
from scorekeeper.games.cards import parse_card
from scorekeeper.games.errors import GameFileError, ScorekeeperError
from scorekeeper.games.variant import COUNTED_AS
from scorekeeper.games.words import Joined, Reader, Say, Sentence
from scorekeeper.storage import games, kernel, log_changes, log_checks, players, plays, rounds, transfer
from scorekeeper.storage.db import connect
from scorekeeper.storage.migrations import migrate

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
    return _lower_case_words(CAPITALS.value(said))


def _lower_case_words(shown: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z_]*[a-z][A-Za-z_]*", shown) if w not in FILE_WORDS]


def assert_said(said) -> None:
    assert english_left(said) == [], f"{str(said)!r} read in capitals: {CAPITALS.value(said)!r}"


# ---------------------------------------------------------------------------------------
# Game files of every variant, legal or not, made up from a seed.

def _cards(rng: random.Random, n: int, pool: list[str]) -> list[str]:
    """``n`` cards, mostly from what is left of the round's decks (``pool``)."""
    return [(pool.pop() if pool else "S2") if rng.random() < 0.98 else rng.choice(["JK", "X9", "S1", "S2"])
            for _ in range(n)]


def _meld_like(rng: random.Random, most: int, run: float, same_rank: float, others) -> list[str]:
    """1 to ``most`` cards: a run of one suit (chance ``run``), else of one rank (chance
    ``same_rank``), else ``others(n)``: what a person might pick for a meld, often wrong."""
    n = rng.randint(1, most)
    if rng.random() < run:
        suit, low = rng.choice("SHDC"), rng.randint(0, 12)
        return [suit + RANKS[(low + i) % 13] for i in range(n)]
    if rng.random() < same_rank:
        rank = rng.choice(RANKS)
        return [rng.choice("SHDC") + rank for _ in range(n)]
    return others(n)


def _meld_cards(rng: random.Random, pool: list[str]) -> list[str]:
    return _meld_like(rng, 7, 0.4, 0.6, lambda n: _cards(rng, n, pool))


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


# ---------------------------------------------------------------------------------------
# The stores (scorekeeper/storage) and the statistics: everything they refuse or say.

TOLD = (kernel.Refused, kernel.NotFound, kernel.Repeated)


def assert_read(value) -> None:
    """A sentence kind that is not a Say (a Sentence, sentences joined): no English left."""
    assert isinstance(value, (Say, Sentence, Joined)), f"not a sentence: {value!r}"
    shown = CAPITALS.value(value)
    assert _lower_case_words(shown) == [], f"{str(value)!r} read in capitals: {shown!r}"


def assert_told(e: kernel.Told) -> None:
    """A refusal of the stores: its clause a sentence, its sentence for the pages too, and
    the English of both as the command line and the web read them (``reason``, ``message``)."""
    assert_said(e.said_reason)
    assert isinstance(e.said, Sentence)
    assert_read(e.said)
    assert str(e) == e.reason == str(e.said_reason)
    assert e.message == str(e.said) == kernel.sentence(e.reason)


def _meld(rng: random.Random) -> list[str]:
    return _meld_like(rng, 5, 0.5, 0.7, lambda n: [
        rng.choice(DECK) if rng.random() < 0.97 else rng.choice(["JK", "X9", "S1"]) for _ in range(n)])


class Stores:
    """The stores driven at random on a database of their own; every refusal and every
    sentence they give is checked as it comes (``seen`` counts them by what asked)."""

    def __init__(self, path: str, seed: int) -> None:
        self.db = connect(path)
        migrate(self.db)
        self.rng = random.Random(seed)
        self.seen: dict[str, int] = {}
        self.texts: set[str] = set()

    def said(self, what: str, value) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1
        self.texts.add(str(value))
        if isinstance(value, Say):
            assert_said(value)
        else:
            assert_read(value)

    def attempt(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TOLD as e:
            key = f"{what}: {type(e).__name__}"
            self.seen[key] = self.seen.get(key, 0) + 1
            self.texts.add(e.reason)
            assert_told(e)
            return None

    def request(self) -> str:
        return f"r{self.rng.random()}" if self.rng.random() < 0.95 else "again"

    def log_game(self, key: str) -> int:
        rng, db, v = self.rng, self.db, registry.get(key)
        people = NAMES[:rng.randint(v.min_players, min(v.max_players, 4))]
        teams = ([[people[0], people[2]], [people[1], people[3]]]
                 if key == "robber" and len(people) == 4 and rng.random() < 0.5 else None)
        rules = {"target": rng.choice([50, 150, 500])} if rng.random() < 0.7 else {}
        game_id, _secret = games.create(db, v, people, rules, rng.randrange(len(people)), teams)
        for _ in range(rng.randint(30, 120)):
            state = games.state(db, game_id)
            self.said("status", state.said_status())
            assert state.status() == str(state.said_status())
            if state.end_reason():
                self.said("how the round ended", state.end_reason())
            rows, melds = state.log.plays, [r.id for r in state.log.plays if r.type == "meld"]
            player = rng.choice(people) if rng.random() < 0.95 else "ZED"
            r = rng.random()
            if r < 0.45:
                kind = rng.choice(list(v.table_plays) + ["meld", "meld", "layoff", "BOGUS"])
                cards = {"meld": _meld(rng), "BOGUS": _meld(rng), "layoff": [rng.choice(DECK)],
                         "take": [rng.choice(DECK)], "ace": [rng.choice("SHDC") + "A"]}.get(kind, [])
                target = rng.choice(melds + [999]) if melds and kind == "layoff" else None
                preview = log_checks.preview(state, kind, player, cards, target)
                if preview.error is not None:
                    self.said("preview", preview.said_error)
                    assert preview.error == str(preview.said_error)
                round_no = state.round_no if rng.random() < 0.9 else state.round_no + rng.choice([-1, 1])
                turn = state.turn if rng.random() < 0.8 else rng.choice(people)
                self.attempt("play", log_changes.add_play, db, game_id, self.request(), kind, player, cards,
                             target, turn if kind == "pass" else None, round_no)
            elif r < 0.55:
                last = rng.choice([None, 0, rows[-1].id if rows else 0, 12345])
                undone = self.attempt("undo", log_changes.undo_said, db, game_id, self.request(), last)
                if undone is not None:
                    self.said("undone", undone)
            elif r < 0.75:
                hand = [rng.choice(DECK) for _ in range(rng.choice([0, 1, 2, 3, 8, 60]))]
                round_no = state.round_no if rng.random() < 0.9 else state.round_no + 1
                self.attempt("hand", log_changes.save_hand, db, game_id, self.request(), round_no, player, hand)
            elif r < 0.83:
                round_no = state.round_no if rng.random() < 0.9 else state.round_no + 1
                self.attempt("confirm", log_changes.confirm_round, db, game_id, self.request(), round_no)
            elif rows:
                row = rng.choice(rows)
                play_id = row.id if rng.random() < 0.9 else 99999
                revision = rng.choice([None, row.revision, row.revision + 1])
                k = rng.random()
                if k < 0.4:
                    cards = _meld(rng) if row.type != "out" else []
                    target = rng.choice(melds + [None]) if melds else None
                    preview = log_changes.preview_edit(state, play_id, player, cards, target)
                    if preview.error is not None:
                        self.said("preview of a change", preview.said_error)
                        assert preview.error == str(preview.said_error)
                    self.attempt("change", log_changes.edit_play, db, game_id, self.request(), play_id, player,
                                 cards, target, revision)
                elif k < 0.8:
                    gone = self.attempt("delete", log_changes.delete_play, db, game_id, self.request(), play_id,
                                        revision)
                    if gone is not None and rng.random() < 0.5:
                        self.attempt("bring back", log_changes.restore_play, db, game_id, self.request(), gone)
                else:
                    self.attempt("bring back", log_changes.restore_play, db, game_id, self.request(), row)
            for row in games.state(db, game_id).log.plays:
                self.said("a play", row.describe())
        return game_id

    def counted_game(self, key: str) -> int:
        rng, db, v = self.rng, self.db, registry.get(key)
        people = NAMES[:rng.randint(v.min_players, min(v.max_players, 4))]
        rules = {"target": rng.choice([10, 50, 100])} if key == "gin" and rng.random() < 0.7 else {}
        game_id, _secret = games.create(db, v, people, rules, rng.randrange(len(people)))
        size = {"gin": 10, "conquian": 10}.get(key, 7)
        for _ in range(rng.randint(20, 60)):
            scored = games.state(db, game_id)
            self.said("status", scored.said_status())
            assert scored.status() == str(scored.said_status())
            assert scored.bonus_words() == str(scored.said_bonus_words())
            for word in scored.said_bonus_words().parts:
                self.said("bonus", word)
            pool = _pool(rng, key)
            ended = rng.choice([v.ender, v.ender, v.ender, "stalemate", "BOGUS"])
            player = rng.choice(people) if rng.random() < 0.9 else "ZED"
            hands = {p: [pool.pop() if pool else "S2"
                         for _ in range(size if rng.random() < 0.7 else rng.randint(0, 12))]
                     for p in people if (p != player or rng.random() < 0.5) and rng.random() < 0.97}
            if rng.random() < 0.02:
                hands[people[0]] = ["XX"]
            rnd = self.attempt("a round's form", rounds.new_round, v, people, ended, player,
                               rng.random() < 0.1, hands)
            if rnd is None:
                continue
            round_no = scored.round_no if rng.random() < 0.8 else rng.randint(0, scored.round_no + 1)
            k = rng.random()
            if k < 0.15:
                self.attempt("preview", rounds.preview, db, scored, round_no, rnd)
            elif k < 0.7:
                self.attempt("record", rounds.record_round, db, game_id, self.request(), round_no, rnd)
            elif k < 0.85:
                self.attempt("change", rounds.edit_round, db, game_id, self.request(), round_no, rnd,
                             rng.choice([None, 0, 1]))
            elif k < 0.95:
                self.attempt("delete", rounds.delete_round, db, game_id, self.request(), round_no,
                             rng.choice([None, 0, 1]))
            else:
                self.attempt("bring back", rounds.restore_round, db, game_id, self.request(), round_no, rnd)
        return game_id

    def people_files_and_figures(self, ids: list[int]) -> None:
        rng, db = self.rng, self.db
        for _ in range(30):
            everyone = players.everyone(db, players.EVERY_GAME)
            one = rng.choice(everyone)
            editable = players.EVERY_GAME if rng.random() < 0.8 else ids[:rng.randint(0, len(ids))]
            r = rng.random()
            if r < 0.5:
                name = rng.choice(["", "  ", "X" * 41, "BOB", "ANN", "ZOË", "A\u200bB", "\u0301X",
                                   "!!", f"NEW{rng.randint(0, 9)}", one.name])
                self.attempt("rename", players.rename, db, one.id, name,
                             rng.choice([None, one.name, "OTHER"]), editable=editable,
                             request_id=self.request())
            elif r < 0.9:
                self.attempt("merge", players.merge, db, one.id, rng.choice(everyone).id, editable=editable,
                             request_id=self.request())
            else:
                self.attempt("a player", players.get, db, rng.choice([one.id, 9999]), players.EVERY_GAME)
        for game_id in ids:
            doc = games.export_document(db, game_id)
            files = [json.dumps(doc).encode(), b"", b"\xff\xfe\x00", b"{", b"[]",
                     json.dumps(dict(doc, variant="POKER")).encode(),
                     json.dumps(dict(doc, players=list(doc["players"]) + ["SS", "ß"])).encode()]
            files += [json.dumps(dict(doc, players=[bad] + list(doc["players"][1:]))).encode()
                      for bad in ("X" * 45, " ANN", "", "BOB")]
            for data in files:
                if self.attempt("import", transfer.import_upload, db, data) is not None:
                    self.attempt("import again", transfer.import_upload, db, data)
        for query in ({}, {"variant": "POKER"}, {"since": "YESTERDAY"}, {"until": "2026-13-40"},
                      {"since": "2026-02-01", "until": "2026-01-01"}):
            for problem in players.filter_history(kernel.list_games(db, ids), query)[2]:
                self.said("filters", problem)
        records, _unread = players.records(db, players.EVERY_GAME)
        for record in records:
            for _player, notes in stats.highlights(stats.facts(record)):
                for note in notes:
                    self.said("a record", note)
            for player in record.players:
                figures = stats.player_stats(player, records)
                for line in [figures.overall, *figures.lines]:
                    self.said("a line of figures", line.name)
        self.attempt("a game", kernel.header, db, 9999)
        self.attempt("new game", games.create, db, registry.get("rummy"), ["ANN", "BOB"], {}, 5)


@pytest.mark.parametrize("seed", range(3))
def test_everything_the_stores_refuse_or_say_comes_from_templates(tmp_path, seed):
    stores = Stores(str(tmp_path / "said.db"), seed)
    ids = [stores.log_game(key) if registry.get(key).recording == "log" else stores.counted_game(key)
           for key in registry.VARIANTS for _ in range(2)]
    stores.people_files_and_figures(ids)
    assert sum(n for what, n in stores.seen.items() if ": " in what) > 200
    assert len(stores.texts) > 150, len(stores.texts)


def test_the_stores_say_in_whole_sentences_what_chance_seldom_reaches(tmp_path):
    """Changes that break a later play or a counted hand, a lay-off in the way, the last
    ace, the stock, a game won with its bonuses: the stores' words, exactly as before."""
    stores = Stores(str(tmp_path / "said.db"), 0)
    db, told = stores.db, []

    def refused(fn, *args, **kwargs):
        try:
            fn(*args, **kwargs)
        except TOLD as e:
            assert_told(e)
            told.append(e.reason)
            return e.reason
        raise AssertionError("not refused")

    ids = iter(range(10**6))

    def rid():
        return f"t{next(ids)}"

    unfit = {"iceberg": "a run of hearts takes only hearts",
             "robber": "a sequence grows only at its ends, in its suit, never around the corner"}
    for key, word in (("iceberg", "round"), ("robber", "hand")):
        v = registry.get(key)
        game_id, _ = games.create(db, v, ["ANN", "BOB", "CY"], {"decks": 1} if key == "iceberg" else {}, 2)
        meld, _ = log_changes.add_play(db, game_id, rid(), "meld", "ANN", ["S3", "S4", "S5"])
        lay_off, _ = log_changes.add_play(db, game_id, rid(), "layoff", "BOB", ["S6"], meld.id)
        refused(log_changes.delete_play, db, game_id, rid(), meld.id)
        if v.edits:
            assert refused(log_changes.edit_play, db, game_id, rid(), meld.id, "ANN", ["H3", "H4", "H5"]) == (
                f"that would make a later play illegal: BOB's lay-off (S6) in {word} 1 — S6 does not "
                f"fit H3 H4 H5: {unfit[key]}")
        refused(log_changes.add_play, db, game_id, rid(), "meld", "CY", ["C7", "C7", "C7"])
        log_changes.add_play(db, game_id, rid(), "out", "CY")
        state = games.state(db, game_id)
        assert state.status() == "CY went out: hands to count"
        stores.said("status", state.said_status())
        assert refused(log_changes.add_play, db, game_id, rid(), "pass", "ANN", turn=state.turn) == (
            f"the {word} is over (CY went out): count the hands")
        refused(log_changes.save_hand, db, game_id, rid(), 1, "CY", ["D9"])
        log_changes.save_hand(db, game_id, rid(), 1, "ANN", ["D9"])
        assert refused(log_changes.confirm_round, db, game_id, rid(), 1) == (
            "enter the cards left in BOB's hand first")
        # Every S2 the decks hold.
        log_changes.save_hand(db, game_id, rid(), 1, "BOB", ["S2"] * (2 if key == "robber" else 1))
        log_changes.confirm_round(db, game_id, rid(), 1)
        assert refused(log_changes.confirm_round, db, game_id, rid(), 1) == f"{word} 1 was counted already"
        if v.edits:
            assert refused(log_changes.edit_play, db, game_id, rid(), lay_off.id, "BOB", ["S2"], meld.id).startswith(
                f"that would clash with the hands counted at the end of {word} 1: ")
        assert refused(log_changes.restore_play, db, game_id, rid(),
                       plays.PlayRow(None, 1, 9, "layoff", "BOB", ("S7",), 424242)) == (
            "BOB's lay-off (S7) lies on a meld that is not on the table")
        undone = log_changes.undo_said(db, game_id, rid())
        assert str(undone) == f"reopened the end of {word} 1: the hands can be changed"
        stores.said("undone", undone)
        refused(log_changes.undo_said, db, game_id, rid(), 0)
        assert refused(log_changes.confirm_round, db, game_id, rid(), 2) == (
            f"{word} 2 is not the {word} being played ({word} 1 is)")
        assert log_changes.undo(db, game_id, rid()) == "took back CY's going out"

    v = registry.get("iceberg")  # the last ace
    game_id, _ = games.create(db, v, ["ANN", "BOB"], {"decks": 1}, 0)
    for player, ace in (("BOB", "SA"), ("ANN", "HA"), ("BOB", "DA"), ("ANN", "CA")):
        log_changes.add_play(db, game_id, rid(), "ace", player, [ace])
        if ace != "CA":
            log_changes.add_play(db, game_id, rid(), "pass", player)
    state = games.state(db, game_id)
    assert state.status() == "ANN exposed the last ace: hands to count"
    assert str(state.end_reason()) == "ANN exposed the last ace; the round ends after that turn"
    stores.said("status", state.said_status())

    v = registry.get("robber")  # the stock
    game_id, _ = games.create(db, v, ["ANN", "BOB"], {}, 0)
    log_changes.add_play(db, game_id, rid(), "stock", "ANN")
    state = games.state(db, game_id)
    assert state.status() == "the stock ran out (ANN drew the last card): hands to count"
    stores.said("status", state.said_status())

    v = registry.get("gin")  # won, with bonuses
    game_id, _ = games.create(db, v, ["ANN", "BOB"], {"target": 10}, 0)
    hands = {"ANN": ["SA", "S2", "S3", "H4", "H5", "H6", "D7", "D8", "D9", "C2"],
             "BOB": ["SK", "HK", "DQ", "CJ", "S10", "H9", "D5", "C8", "H7", "C4"]}
    rnd = rounds.new_round(v, ["ANN", "BOB"], "knock", "ANN", False, hands)
    scored = rounds.record_round(db, game_id, rid(), 1, rnd)
    assert scored.bonus_words() == "game, shutout, lines"
    for bonus in scored.said_bonus_words().parts:
        stores.said("bonus", bonus)
    assert refused(rounds.preview, db, scored, 2, rnd) == "the game is over: ANN wins"

    v = registry.get("kalooki")  # a change that breaks a later round
    game_id, _ = games.create(db, v, ["ANN", "BOB", "CY"], {}, 0)
    for round_no, out, hands in ((1, "ANN", {"BOB": ["S2"], "CY": ["S3"]}),
                                 (2, "BOB", {"ANN": ["S2"], "CY": ["S3"]})):
        rounds.record_round(db, game_id, rid(), round_no,
                            rounds.new_round(v, ["ANN", "BOB", "CY"], "out", out, False, hands))
    heavy = rounds.new_round(v, ["ANN", "BOB", "CY"], "out", "ANN", False, {
        "BOB": ["SK", "HK", "DK", "CK", "SQ", "HQ", "DQ", "CQ", "JK", "JK", "SJ", "HJ", "DJ"], "CY": ["S3"]})
    assert refused(rounds.edit_round, db, game_id, rid(), 1, heavy) == (
        "that would make round 2 illegal: BOB was eliminated and no longer plays")
    assert refused(rounds.restore_round, db, game_id, rid(), 7, heavy) == (
        "the game has 2 rounds now: round 7 cannot come back in its place")
    assert len(told) > 20

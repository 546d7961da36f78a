"""The finished rounds' results kept beside the log (storage/results.py) are always what a
full replay of the log gives (issue 22, item 1).

Hypothesis plays random games through the stores (no pages): plays of the round being
played, passes, going out, hands entered and counted, and, across the rounds already
counted, edits, deletes, plays brought back, undos and hand corrections (a round end
reopened, a hand changed, counted again), many of them refused by the rules. After every
step the kept rows equal the results replayed from the log round by round
(``games.replayed_rounds``, what ``scorekeeper rebuild`` writes), and their scores and
totals equal ``scorekeeper score``'s of the exported game file; the summary the history
list shows agrees. The same for counted games (Gin, Kalooki), whose rounds carry their
state from one to the next. And: ``rebuild`` writes the same rows; a renamed player is
renamed in them.
"""
from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile
from scorekeeper.games import registry
from scorekeeper.games.cards import full_deck
from scorekeeper.storage import games, kernel, log_changes, players, rounds
from scorekeeper.storage.db import connect
from scorekeeper.storage.kernel import Refused, Repeated
from scorekeeper.storage.migrations import migrate
from scorekeeper.storage.plays import PlayRow
from tests.conftest import examples

NAMES = ["Ann", "Bob", "Cy", "Di"]
STEPS = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                                   HealthCheck.function_scoped_fixture])


def fresh_db(tmp_path_factory):
    db = connect(str(tmp_path_factory.mktemp("results") / "s.db"))
    migrate(db)
    return db


def kept(db, game_id):
    """The kept rows, as plain data: [record, standing] a round."""
    rows = db.execute("SELECT scores, said, figures, facts, standing FROM round_results WHERE game = ? "
                      "ORDER BY round_no", [game_id]).fetchall()
    return [[dict(zip(("scores", "said", "figures", "facts"), map(json.loads, row[:4]))), json.loads(row[4])]
            for row in rows]


def check_kept(db, game_id):
    """The kept rows equal the log replayed round by round and the game file's own score."""
    now = kept(db, game_id)
    replayed = [[record.as_data(), after.as_data()] for record, after in games.replayed_rounds(db, game_id)]
    assert now == json.loads(json.dumps(replayed))
    score = gamefile.score_document(games.export_document(db, game_id))
    finished = [r for r in score["rounds"] if r["finished"]]
    assert [record["scores"] for record, _after in now] == [r["scores"] for r in finished]
    row = kernel.header(db, game_id)
    if registry.get(score["variant"]).recording == "log":
        totals = now[-1][1]["totals"] if now else {p: 0 for p in row["players"]}
        assert totals == score["totals"] == row["totals"]
    else:
        assert row["totals"] == score["totals"]
    assert row["over"] == bool(score["winners"])


def _cards(data, unseen: Counter, most: int) -> list[str]:
    pool = sorted(unseen.elements(), key=str)
    if not pool:
        return []
    picked = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=most, unique=True))
    return [str(c) for c in picked]


@STEPS
@given(data=st.data())
def test_iceberg_results_kept_equal_a_full_replay_after_any_changes(tmp_path_factory, data):
    db = fresh_db(tmp_path_factory)
    people = NAMES[: data.draw(st.integers(2, 3), label="players")]
    game_id, _secret = games.create(db, registry.get("iceberg"), people,
                                    {"target": 10**9, "decks": 1, "card_penalty": 5}, 0)
    deleted: list[PlayRow] = []
    n = 0

    def rid():
        nonlocal n
        n += 1
        return f"r{n}"

    def attempt(call, *args, **kwargs):
        try:
            done = call(db, game_id, rid(), *args, **kwargs)
        except (Refused, Repeated, kernel.NotFound):
            return None
        event(f"{call.__name__} done")
        return done

    for _step in range(data.draw(st.integers(10, 40), label="steps")):
        state = games.state(db, game_id)
        unseen = Counter({c: state.round.supply.remaining(c) for c in full_deck(1)}) if not state.over else Counter()
        move = data.draw(st.sampled_from(["meld"] * 3 + ["layoff"] * 2 + ["ace", "pass"] + ["out"] * 2
                                         + ["count"] * 3 + ["edit"] * 3 + ["delete", "restore", "undo", "hand"]),
                         label="move")
        who = data.draw(st.sampled_from(people), label="who")
        if move == "meld":
            attempt(log_changes.add_play, "meld", who, _cards(data, unseen, 4))
        elif move == "layoff" and state.melds():
            target = data.draw(st.sampled_from([pid for pid, _m in state.melds()]))
            attempt(log_changes.add_play, "layoff", who, _cards(data, unseen, 2), target)
        elif move == "ace":
            aces = [c for c in ("SA", "HA", "DA", "CA") if unseen[kernel.parse_card(c)]]
            if aces:
                attempt(log_changes.add_play, "ace", who, [data.draw(st.sampled_from(aces))])
        elif move == "pass":
            attempt(log_changes.add_play, "pass", "")
        elif move == "out":
            attempt(log_changes.add_play, "out", who)
        elif move in ("count", "hand") and state.ended:
            for p in state.missing_hands() if move == "count" else [who]:
                attempt(log_changes.save_hand, state.round_no, p, _cards(data, unseen, 3) if unseen else [])
            attempt(log_changes.confirm_round, state.round_no)
        elif move == "hand" and not state.rows() and state.finished_rounds:
            attempt(log_changes.undo_said)  # reopen the last round's end: its hands can change
        elif move in ("edit", "delete") and state.finished_rounds + 1 >= 1:
            round_no = data.draw(st.integers(1, max(1, state.round_no)), label="round")
            ids = [row[0] for row in db.execute(
                "SELECT id FROM plays WHERE game = ? AND round_no = ? AND type != 'pass'", [game_id, round_no])]
            if ids:
                play_id = data.draw(st.sampled_from(ids), label="play")
                if move == "edit":
                    row = games.state(db, game_id, round_no).log.play(play_id)
                    cards = list(row.cards[:-1]) if len(row.cards) > 2 else list(row.cards)
                    done = attempt(log_changes.edit_play, play_id, data.draw(st.sampled_from(people)), cards,
                                   row.target)
                else:
                    done = row = attempt(log_changes.delete_play, play_id)
                    if row is not None:
                        deleted.append(row)
                if done is not None and round_no <= state.finished_rounds:
                    event("a counted round changed")
        elif move == "restore" and deleted:
            attempt(log_changes.restore_play, deleted.pop())
        elif move == "undo":
            attempt(log_changes.undo_said)
        check_kept(db, game_id)


def _gin_hands(data, people):
    deck = sorted(full_deck(1), key=str)
    dealt = data.draw(st.permutations(deck))[:20]
    return {people[0]: [str(c) for c in dealt[:10]], people[1]: [str(c) for c in dealt[10:]]}


@STEPS
@given(data=st.data(), key=st.sampled_from(["gin", "kalooki"]))
def test_counted_results_kept_equal_a_full_replay_after_any_changes(tmp_path_factory, data, key):
    db = fresh_db(tmp_path_factory)
    variant = registry.get(key)
    people = NAMES[:2] if key == "gin" else NAMES[:3]
    rules = {"target": 150, "knock_limit": 10} if key == "gin" else {"elimination": 60}
    game_id, _secret = games.create(db, variant, people, rules, 0)
    gone = []
    n = 0

    def rid():
        nonlocal n
        n += 1
        return f"r{n}"

    def a_round():
        if key == "gin":
            if data.draw(st.integers(0, 9)) == 0:
                return rounds.new_round(variant, people, "stalemate", None, False, {})
            return rounds.new_round(variant, people, "knock", data.draw(st.sampled_from(people)), False,
                                    _gin_hands(data, people))
        out = data.draw(st.sampled_from(people))
        pool = data.draw(st.permutations(sorted(full_deck(1), key=str)))
        hands = {p: [str(c) for c in pool[i * 5:i * 5 + data.draw(st.integers(0, 5))]]
                 for i, p in enumerate(people) if p != out}
        return rounds.new_round(variant, people, "out", out, False, hands)

    for _step in range(data.draw(st.integers(3, 14), label="steps")):
        scored = rounds.load(db, game_id)
        move = data.draw(st.sampled_from(["record", "record", "record", "edit", "delete", "restore"]))
        try:
            if move == "record":
                rounds.record_round(db, game_id, rid(), scored.recorded + 1, a_round())
            elif move == "edit" and scored.recorded:
                rounds.edit_round(db, game_id, rid(), data.draw(st.integers(1, scored.recorded)), a_round())
            elif move == "delete" and scored.recorded:
                k = data.draw(st.integers(1, scored.recorded))
                gone.append((k, rounds.recorded_round(db, game_id, k)))
                rounds.delete_round(db, game_id, rid(), k)
            elif move == "restore" and gone:
                k, rnd = gone.pop()
                rounds.restore_round(db, game_id, rid(), k, rnd)
            event(f"{move} done")
        except (Refused, Repeated):
            pass
        check_kept(db, game_id)


def test_rebuild_writes_the_rows_kept_and_a_rename_renames_them(tmp_path):
    db = connect(str(tmp_path / "s.db"))
    migrate(db)
    doc = json.loads((gamefile_examples() / "iceberg-seed-example.json").read_text())
    doc["rules"] = {"target": 10**6}
    doc["rounds"] = doc["rounds"] * 3
    game_id = games.import_document(db, doc)
    before = kept(db, game_id)
    assert len(before) == 3
    db.execute("DELETE FROM round_results WHERE game = ?", [game_id])
    db.conn.commit()
    assert games.rebuild(db, game_id) == 3
    assert kept(db, game_id) == before
    player = next(p for p in players.everyone(db, players.EVERY_GAME) if p.name == "A")
    players.rename(db, player.id, "Zoë", editable=players.EVERY_GAME)
    check_kept(db, game_id)
    assert "Zoë" in kept(db, game_id)[0][0]["scores"]


def gamefile_examples():
    from pathlib import Path

    return Path(__file__).resolve().parents[1] / "examples"


def test_a_change_to_a_counted_round_can_end_the_game_or_let_it_go_on(tmp_path):
    """Round 1 takes Ann past the target: the game is over. Her meld made smaller, it goes
    on (round 2 is the round being played); made big again, it is over again. Round 2
    begun, a change that would end the game after round 1 is refused."""
    db = connect(str(tmp_path / "s.db"))
    migrate(db)
    game_id, _secret = games.create(db, registry.get("iceberg"), ["Ann", "Bob"], {"target": 40, "decks": 1}, 1)
    meld, _ = log_changes.add_play(db, game_id, None, "meld", "Ann", ["S2", "S3", "S4", "S5"])
    log_changes.add_play(db, game_id, None, "out", "Ann")
    log_changes.save_hand(db, game_id, None, 1, "Bob", [])
    log_changes.confirm_round(db, game_id, None, 1)
    assert games.state(db, game_id).over
    log_changes.edit_play(db, game_id, None, meld.id, "Ann", ["S2", "S3", "S4"])
    state = games.state(db, game_id)
    assert not state.over and state.round_no == 2 and state.being_played
    check_kept(db, game_id)
    log_changes.edit_play(db, game_id, None, meld.id, "Ann", ["S2", "S3", "S4", "S5"])
    assert games.state(db, game_id).over
    check_kept(db, game_id)
    log_changes.edit_play(db, game_id, None, meld.id, "Ann", ["S2", "S3", "S4"])
    log_changes.add_play(db, game_id, None, "meld", "Ann", ["H2", "H3", "H4"])  # round 2 begun
    try:
        log_changes.edit_play(db, game_id, None, meld.id, "Ann", ["S2", "S3", "S4", "S5"])
    except Refused as refusal:
        assert str(refusal) == ("that would end the game before round 2, which was played after it:"
                                " delete the later rounds first")
    else:
        raise AssertionError("a change that ends the game before a round played after it")
    check_kept(db, game_id)

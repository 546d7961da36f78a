"""Driving a game through the web routes, as the phones at a table do (no JavaScript)."""
from __future__ import annotations

import re

from scorekeeper import create_app


def csrf_checking_client(tmp_path):
    """A client of an app on its own database that checks CSRF tokens (the ``client``
    fixture's app does not), for the tests that every POST needs one."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "test",
                       "WTF_CSRF_ENABLED": True}).test_client()


def form_token(html: str) -> str:
    """The CSRF token of the first form on a page (the new-game form's has type="hidden" first)."""
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html).group(1)


class Table:
    """A game played through the web routes, as people at the table would."""

    def __init__(self, client):
        self.client = client
        self.game_id = None
        self.key = None

    # -- setting up ---------------------------------------------------------------------
    def new_game(self, players, dealer=0, **rules):
        data = {f"seat_{i}": name for i, name in enumerate(players)}
        data["first_dealer"] = str(dealer)
        for name, value in rules.items():
            data[f"rule_{name}"] = {True: "true", False: "false"}.get(value, str(value))
        response = self.client.post("/games", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.key = re.search(r"/g/([^/]+)/table", response.headers["Location"]).group(1)
        self.game_id = int(self.key.split("-")[0])
        return self.game_id

    @property
    def url(self):
        """The game's edit link (its key carries the secret)."""
        return f"/g/{self.key}"

    # -- reading ------------------------------------------------------------------------
    def page(self, path="/table"):
        response = self.client.get(self.url + path)
        assert response.status_code == 200, response.status_code
        return response.get_data(as_text=True)

    def turn(self):
        return re.search(r'data-turn="([^"]*)"', self.page()).group(1)

    def dealer(self):
        return re.search(r'data-dealer="([^"]*)"', self.page()).group(1)

    def totals(self, path="/table"):
        html = self.page(path)
        return {p: int(v.replace("−", "-")) for p, v in re.findall(r'data-total="([^"]*)">([^<]*)<', html)}

    def round_scores(self):
        html = self.page("/table")
        return {p: int(v) for p, v in re.findall(r'data-round-score="([^"]*)">([^<]*)<', html)}

    def meld_id(self, number):
        html = self.page()
        match = re.search(rf'data-meld="(\d+)" data-meld-number="{number}"', html)
        assert match, f"no meld {number} on the table"
        return int(match.group(1))

    def play_ids(self):
        return [int(i) for i in re.findall(r'data-play="(\d+)"', self.page())]

    # -- playing ------------------------------------------------------------------------
    def post(self, path, data, expect=303):
        response = self.client.post(self.url + path, data=data)
        assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[-3000:])
        return response

    def meld(self, player, *cards, expect=303):
        return self.post("/plays", {"player": player, "cards": list(cards), "meld": "", "confirm": "1"}, expect)

    def lay_off(self, player, number, *cards, expect=303):
        target = self.meld_id(number)
        return self.post("/plays", {"player": player, "cards": list(cards), "meld": str(target),
                                    "confirm": "1"}, expect)

    def ace(self, player, card, expect=303):
        return self.post("/aces", {"player": player, "card": card}, expect)

    def out(self, player, expect=303):
        return self.post("/out", {"player": player}, expect)

    def pass_turn(self, expect=303):
        return self.post("/pass", {}, expect)

    def undo(self, expect=303):
        return self.post("/undo", {}, expect)

    def hand(self, player, *cards, round_no=None, expect=303):
        round_no = round_no or int(re.search(r'data-round-end="(\d+)"', self.page("/end")).group(1))
        return self.post("/hands", {"player": player, "round_no": str(round_no), "cards": list(cards)}, expect)

    def confirm_round(self, round_no, expect=303):
        return self.post("/end", {"round_no": str(round_no)}, expect)

    def end_scores(self):
        html = self.page("/end")
        return {p: int(v.replace("−", "-").replace("+", ""))
                for p, v in re.findall(r'data-score="([^"]*)">([^<]*)<', html)}


def seed_round(table):
    """docs/rules/iceberg.md's seed example, round 1, played through the routes (C deals, A starts)."""
    table.ace("A", "DA")
    table.meld("A", "S9", "S8", "S7")
    table.pass_turn()
    table.meld("B", "DJ", "CJ")
    table.pass_turn()
    table.ace("C", "CA")
    table.lay_off("C", 2, "HJ")
    table.lay_off("C", 1, "S6")
    table.pass_turn()
    table.meld("A", "H3", "C3")
    table.meld("A", "DQ", "SQ")
    table.out("A")
    table.hand("B", "SK", "SJ", "S3", "HQ", "C6")
    table.hand("C", "D10", "D9", "D4", "CK", "CQ")

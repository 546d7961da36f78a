"""Benchmark: what a table's page and its live answer cost to draw, in each language.

Run from the repository root (the catalogs compiled, as ``make`` installs them):

    .venv/bin/python benchmarks/pages.py            # about 20 s
    .venv/bin/python benchmarks/pages.py --src DIR  # another checkout, for paired runs

An Iceberg game of three with six melds and five passes logged, read through Flask's
test client (no server, no network): the table page and ``/live`` (the answer every
phone polls for, and what a play sent in the background gets back), each the mean of
``--repeat`` requests, for English, Spanish and German phones; then a Robber hand of five
players and twelve melds, its page and whole live answer (each meld's worth to a phone
offline in them: games/worth.py), for an English phone. The baseline, measured in
the same run, is the app's stylesheet (a request through the same app with no page to
draw and no words to read), so the ratios hold when this machine's speed moves. The
live answer is drawn once per version for every phone of a kind and kept
(scorekeeper/web/live.py): the payloads kept are dropped before each request, so that
each one is drawn, as the first phone to ask draws it.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROBBER_MELDS = ["S5 S6 S7", "H9 D9 C9", "C2 C3 C4", "DJ DQ DK", "HA H2 H3", "S10 SJ SQ", "H5 H6 H7",
                "D2 D3 D4", "CK HK SK", "C7 C8 C9", "D6 D7 D8", "HJ HQ HK"]
PLAYS = [("A", ["S2", "S3", "S4"]), ("B", ["H2", "H3", "H4"]), ("C", ["D2", "D3", "D4"]),
         ("A", ["C2", "C3", "C4"]), ("B", ["S6", "S7", "S8"]), ("C", ["H6", "H7", "H8"])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout to measure (default: this one)")
    parser.add_argument("--repeat", type=int, default=300, help="requests a figure (300)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src))
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False,
                      "DATABASE": os.path.join(tempfile.mkdtemp(), "pages.db")})
    client = app.test_client()
    made = client.post("/games", data={"seat_0": "A", "seat_1": "B", "seat_2": "C", "first_dealer": "2"})
    game = re.search(r"(/g/[^/]+)/table", made.headers["Location"]).group(1)
    for player, cards in PLAYS:
        client.post(f"{game}/plays", data={"player": player, "meld": "", "confirm": "1", "cards": cards,
                                           "round_no": "1"}, headers={"Accept": "application/json"})
        client.post(f"{game}/pass", data={"turn": player, "round_no": "1"})

    def mean_ms(path: str, language: str) -> float:
        headers = {"Accept-Language": language}
        assert client.get(path, headers=headers).status_code == 200, path
        start = time.perf_counter()
        for _ in range(args.repeat):
            app.extensions.pop("scorekeeper.live", None)  # each answer drawn (none kept)
            client.get(path, headers=headers)
        return (time.perf_counter() - start) * 1000 / args.repeat

    qr_codes(app, client, game, args.repeat)
    print(f"{args.src}: ms a request (mean of {args.repeat}), and ÷ the stylesheet's")
    print(f"{'':10} {'css':>6} {'table':>6} {'live':>6} {'table ÷':>8} {'live ÷':>7}")
    for language in ("en", "es", "de"):
        css = mean_ms("/static/app.css", language)
        table = mean_ms(f"{game}/table", language)
        live = mean_ms(f"{game}/live?since=0", language)
        print(f"{language:10} {css:6.2f} {table:6.2f} {live:6.2f} {table / css:8.2f} {live / css:7.2f}")
    hand = robber_hand(client)
    css, table, live = (mean_ms(path, "en") for path in ("/static/app.css", hand, hand + "/live?since=0&whole=1"))
    print(f"{'robber en':10} {css:6.2f} {table:6.2f} {live:6.2f} {table / css:8.2f} {live / css:7.2f}")
    return 0


def robber_hand(client) -> str:
    """A Robber hand of five, twelve melds on the table: its page's address."""
    made = client.post("/games", data={"variant": "robber", "first_dealer": "4",
                                       **{f"seat_{i}": name for i, name in enumerate("ABCDE")}})
    hand = made.headers["Location"]
    for cards in ROBBER_MELDS:
        client.post(hand + "/play", data={"player": "A", "action": "play", "round_no": "1", "cards": cards.split()},
                    headers={"Accept": "application/json"})
    return hand


def qr_codes(app, client, game: str, repeat: int) -> None:
    """The game page with its two QR codes kept (web/links.py: drawn once per link) and
    drawn on every view, taken in turn (three pairs): what keeping them saves."""
    from scorekeeper.web import links

    kept = links.qr_svg
    drawn = getattr(kept, "__wrapped__", None)
    if drawn is None:  # a checkout that draws them every time: nothing to compare
        return
    rows = []
    for _pair in range(3):
        for label, fn in (("kept", kept), ("drawn", drawn)):
            links.qr_svg = fn
            client.get(game)
            start = time.perf_counter()
            for _ in range(repeat // 3):
                client.get(game)
            rows.append((label, (time.perf_counter() - start) * 1000 / (repeat // 3)))
    links.qr_svg = kept
    print("game page, its QR codes kept or drawn each time (ms a request, in turn):",
          ", ".join(f"{label} {ms:.2f}" for label, ms in rows))


if __name__ == "__main__":
    sys.exit(main())

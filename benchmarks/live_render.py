"""What a change drawn once for every phone of a kind saves (scorekeeper/web/live.py),
and what a piece of a page drawn once saves (``drawn_once``: the log's lines and the
melds, scorekeeper/web/views/helpers.py).

Run from the repository root:

    .venv/bin/python benchmarks/live_render.py             # 3 pairs of runs, about 40 s
    .venv/bin/python benchmarks/live_render.py --memo pieces  # the log lines and melds kept, or not
    .venv/bin/python benchmarks/live_render.py --pairs 1 --rounds 1   # a smoke run

One table of five phones, all with the edit link and one language, plays the load
benchmark's scripted Iceberg rounds (``benchmarks/table_script.py``) against the app
in-process (Flask's test client: no server, no sockets, so only the app's own work is
timed): each play sent as the page's script sends it (JSON, answered with the live
payload), a hand or a round's count as a form; after every write the four other phones
are told the change as their streams are (``/live?since=<version>``, which reads the
same payload). The CPU time of all of it (``time.thread_time``) per write, with the
memo compared kept (as served) and not, in turn, each run on a fresh database playing
the same rounds; then the saving of each pair. ``--memo payload`` (the default): each
request draws its own payload (web/live.py's kinds never kept); ``--memo pieces``: the
payload shared, each of its log lines and melds drawn afresh. Only the standard library and the app.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask import g  # noqa: E402
from werkzeug.datastructures import MultiDict  # noqa: E402

from benchmarks.phones import BACKGROUND, MELD_JSON, step_request  # noqa: E402
from benchmarks.table_script import PLAYERS, script_round  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.web import live  # noqa: E402
from scorekeeper.web.views import helpers  # noqa: E402

VERSION = re.compile(r'"version":\s*(\d+)')
PAGE_VERSION = re.compile(r'data-version="(\d+)"')


def run(shared: bool, rounds: int, players: int, seed: int, memo: str = "payload") -> tuple[float, int, int]:
    """(CPU seconds, writes, payloads drawn) for ``rounds`` scripted rounds, with the
    ``memo`` kept (``shared``) or not."""
    kind, piece = live._kind, helpers._piece
    if not shared and memo == "payload":
        requests = iter(range(10**9))

        def each_its_own(hub, screens):  # every request draws its own
            kind(hub, screens)
            g.live_kind += f" {next(requests)}"  # a name of its own: none kept for it (storage/drawn.py)
            return live._Kind()
        live._kind = each_its_own
    if not shared and memo == "pieces":
        helpers._piece = piece.__wrapped__  # every piece drawn afresh
    drawn = [0]

    def counting(load, build):
        def counted(state):
            drawn[0] += 1
            return build(state)
        return load, counted

    parts = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            app = create_app({"TESTING": True, "DATABASE": f"{folder}/s.db", "SECRET_KEY": "x",
                              "WTF_CSRF_ENABLED": False})
            # The payloads' builders, as the app registered its families, counted.
            parts = dict(live.BUILDERS)
            live.BUILDERS.update({s: counting(*p) for s, p in parts.items()})
            phones = [app.test_client() for _ in range(players)]
            made = phones[0].post("/games", data={
                **{f"seat_{i}": PLAYERS[i] for i in range(players)}, "first_dealer": "0"})
            key = re.search(r"/g/([^/]+)/table", made.headers["Location"]).group(1)
            versions = [int(PAGE_VERSION.search(p.get(f"/g/{key}/table").get_data(as_text=True)).group(1))
                        for p in phones]
            rng, writes, cpu = random.Random(seed), 0, 0.0
            for round_no in range(1, rounds + 1):
                dealer = (round_no - 1) % players
                melds: dict[int, int] = {}
                for step in script_round(rng, players, (dealer + 1) % players, dealer):
                    kind_, path, fields = step_request(step, key, round_no, melds)
                    seat = step[1]
                    started = time.thread_time()
                    if kind_ in BACKGROUND:
                        answer = phones[seat].post(path, data=MultiDict(fields + [("request_id", f"r{writes}")]),
                                                   headers={"Accept": "application/json"})
                        text = answer.get_data(as_text=True)
                        assert answer.status_code == 200, text[-300:]
                        if kind_ == "meld":
                            melds.update({int(n): int(i) for i, n in MELD_JSON.findall(text)})
                        versions[seat] = int(VERSION.search(text).group(1))
                    else:
                        answer = phones[seat].post(path, data=MultiDict(fields + [("request_id", f"r{writes}")]))
                        assert answer.status_code == 303, answer.get_data(as_text=True)[-300:]
                    writes += 1
                    for other, phone in enumerate(phones):
                        if other != seat:
                            told = phone.get(f"/g/{key}/live?since={versions[other]}")
                            if told.status_code == 200:
                                versions[other] = int(VERSION.search(told.get_data(as_text=True)).group(1))
                    cpu += time.thread_time() - started
            return cpu, writes, drawn[0]
    finally:
        live._kind, helpers._piece = kind, piece
        live.BUILDERS.update(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2, help="scripted rounds a run (2)")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--memo", choices=("payload", "pieces"), default="payload",
                        help="kept or not: the payload of each kind of phone, or each log line and meld")
    args = parser.parse_args(argv)
    run(True, 1, args.players, args.seed)  # templates compiled, caches warm
    kept, afresh = {"payload": ("shared", "each its own"), "pieces": ("pieces kept", "pieces afresh")}[args.memo]
    print(f"One table of {args.players} phones, {args.rounds} scripted rounds a run; ms of the app's "
          f"CPU per write, with every other phone told the change; {kept} or {afresh}")
    savings = []
    for pair in range(1, args.pairs + 1):
        shown = []
        for shared in (pair % 2 == 1, pair % 2 == 0):  # the order alternates from pair to pair
            helpers._piece.cache_clear()
            cpu, writes, drawn = run(shared, args.rounds, args.players, args.seed, args.memo)
            shown.append((shared, cpu / writes, drawn, writes))
        with_, without = (next(s for s in shown if s[0] is flag) for flag in (True, False))
        savings.append(1 - with_[1] / without[1])
        print(f"  pair {pair}: {kept} {with_[1] * 1000:.2f} ms ({with_[2]} payloads drawn for "
              f"{with_[3]} writes), {afresh} {without[1] * 1000:.2f} ms ({without[2]} drawn): "
              f"{savings[-1] * 100:.0f}% less")
    savings.sort()
    print(f"Saving: {savings[len(savings) // 2] * 100:.0f}% (median of {len(savings)} pairs; "
          f"{savings[0] * 100:.0f}-{savings[-1] * 100:.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Game files shared by several test files (each test says what it checks of them), and
the events a logged round is written with.

Imported by name, like the other shared test modules: ``from games_data import GIN_ANN_WINS``.
A test that needs to change a game copies it first: the same dict serves every test file.
"""
from __future__ import annotations


# A logged round's events (docs/game-file.md), cards as one text: meld("A", "H9 H10 HJ").
def meld(player, text):
    return {"type": "meld", "player": player, "cards": text.split()}


def layoff(player, number, text):
    return {"type": "layoff", "player": player, "meld": number, "cards": text.split()}


def out(player):
    return {"type": "out", "player": player}

# Gin, classic preset (gin 20, undercut 10), target 100.
#   Hand 1: Ann knocks with gin (S2-S5, H5-H7, D8-D10); Bob's ten cards make no meld:
#   1+3+5+7+9+10+10+10+4+9 = 68 deadwood; Ann scores 68 + 20 = 88.
#   Hand 2: Bob knocks with 3 (S3) over C2-C4, D5-D7, H8-H10; Ann holds S5-S7, three
#   jacks, three queens and SA: deadwood 1, an undercut: (3 − 1) + 10 = 12 to Ann.
#   Ann reaches 100: Ann wins.
GIN_ANN_WINS = {"format": "scorekeeper/1", "variant": "gin", "rules": {}, "players": ["Ann", "Bob"], "rounds": [
    {"knocker": "Ann", "hands": {
        "Ann": ["S2", "S3", "S4", "S5", "H5", "H6", "H7", "D8", "D9", "D10"],
        "Bob": ["CA", "C3", "C5", "C7", "C9", "DQ", "HJ", "SK", "D4", "H9"]}},
    {"knocker": "Bob", "hands": {
        "Bob": ["C2", "C3", "C4", "D5", "D6", "D7", "H8", "H9", "H10", "S3"],
        "Ann": ["S5", "S6", "S7", "SJ", "CJ", "DJ", "CQ", "DQ", "HQ", "SA"]}},
]}

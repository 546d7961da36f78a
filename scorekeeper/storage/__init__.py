"""Where games are kept: SQLite through sqlite-utils.

- ``db``: the connection, the schema and its migrations, write transactions;
- ``kernel``: what every stored game has (its row, seats, request ids, versions);
- ``logs`` and ``rounds``: the two ways rounds are kept (logs of plays; hands counted at
  the end), with ``games`` the one door to them;
- ``players``: the people across games; ``transfer``: game files and score sheets.

The stored truth is the log of each game; every score is computed by replaying its game
file (scorekeeper/gamefile.py). Nothing here knows Flask.
"""

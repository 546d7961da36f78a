"""Where games are kept: SQLite through sqlite-utils.

- ``db``: the connection and write transactions; ``migrations``: the schema's history;
- ``kernel``: what every stored game has (its row, seats, request ids, versions);
- the two ways rounds are kept: logs of plays (``logs`` reads one round, ``log_checks`` checks a
  play, ``log_changes`` changes the log, ``log_asks`` answers a play asked for at the table with
  one outcome, ``plays`` says what a play's row is) and hands counted
  at the end (``rounds``); each answers the door, ``games``, through one interface, its
  store (``log_store``, ``count_store``: the game read, its summary made again, its rounds
  replayed, its game file out and in), so the door never asks which kind a game is;
- ``entries``: the only writes to the log, append-only (every version of every play and
  hand stays); ``record``: each change in it, what it did and from whose phone;
- ``results``: the finished rounds' results kept beside the log; ``drawn``: what the
  pages last drew of a game, for the server's other process;
- ``players``: the people across games; ``transfer``: game files and score sheets.

The stored truth is the log of each game; every score is computed by replaying its game
file (scorekeeper/gamefile/). Nothing here knows Flask.
"""

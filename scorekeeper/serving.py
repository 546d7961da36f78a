"""gunicorn's settings for serving the app for real: ``gunicorn -c python:scorekeeper.serving``.

``make serve`` and the load benchmark (``benchmarks/server.py``) start gunicorn with this
module as its configuration; options on the command line override what it sets.

Stock parts, stock settings, but for these:

- ``gthread`` workers, one per core: a phone keeps its connection alive between its
  plays and its live updates (the ``sync`` worker closes every one), and each worker
  serves requests from a pool of threads. A phone whose wifi drops half way through
  sending a request holds one thread until gunicorn gives up on it; the others are
  served meanwhile. Sixteen threads a worker leave room for ten such phones, all on one
  worker (``tests/test_stalled_phones.py``); a thread waiting on a socket costs nothing.
- the app made once, before the workers are forked (``preload_app``): its database is
  created and migrated once, not by two workers at the same moment.
- no control socket: gunicorn's default one lies at one path in the user's home, shared
  by every gunicorn of that user (a second server would take it over).
"""
from __future__ import annotations

worker_class = "gthread"
workers = 2  # one per core
threads = 16
preload_app = True
control_socket_disable = True

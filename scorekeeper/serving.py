"""gunicorn's settings for serving the app for real: ``gunicorn -c python:scorekeeper.serving``.

``make serve`` and the load benchmark (``benchmarks/server.py``) start gunicorn with this
module as its configuration; options on the command line override what it sets.

The garbage collector. The app keeps what it has worked out in bounded memos (the
replays, the reads, the rendered pieces of the table page: replay_cache.py, store.py,
fragments.py), some 250 000 objects in a busy worker. Python's collector looks at every
one of them in each full collection, and with its default settings that came every few
hundred requests and took 50–250 ms: one request in a few hundred waited that long,
and a sixth of the CPU went to it (``benchmarks/profile_requests.py`` under a
``gc.callbacks`` timer). So each worker:

- freezes (``gc.freeze``) what it was forked with (the app, its templates, the modules:
  frozen in the arbiter before the fork) and, after each full collection, what
  survived it: the collector no longer walks the
  memos again and again, only what is newer. An object frozen this way is still freed
  when its last reference goes (reference counting); only one in a reference cycle that
  becomes garbage after it was frozen waits: every ``THAW_EVERY`` full collections
  everything is thawed and the next full collection takes them.

The younger generations keep Python's thresholds: larger ones (10 000 new objects
instead of 700) made fewer collections, but each took milliseconds, and in all more.
"""
from __future__ import annotations

import gc

# The load benchmark's settings (benchmarks/README.md says why they were chosen).
worker_class = "gthread"  # keeps connections alive (the sync worker closes each one)
workers = 2  # one per core
threads = 1  # no second thread to take the GIL from a write that holds the write lock
preload_app = True  # the app, and the database's migrations, made once before forking
keepalive = 30

THAW_EVERY = 50  # full collections between two thaws (see above)

_full_collections = 0


def _after_collection(phase: str, info: dict) -> None:
    global _full_collections
    if phase != "stop" or info.get("generation") != 2:
        return
    _full_collections += 1
    if _full_collections % THAW_EVERY == 0:
        gc.unfreeze()  # the next full collection looks at everything once more
    else:
        gc.freeze()


def tune_gc(freeze: bool = True) -> None:
    """The collector as described above, in this process (``freeze``: what it holds now)."""
    if freeze:
        gc.freeze()
    if _after_collection not in gc.callbacks:
        gc.callbacks.append(_after_collection)


def pre_fork(server, worker) -> None:  # gunicorn's hook: in the arbiter, before each fork
    # Frozen before the fork, the app made by --preload is never walked by a worker's
    # collector, and the memory pages holding it stay shared between the workers.
    gc.freeze()


def post_fork(server, worker) -> None:  # gunicorn's hook: in each worker, once forked
    tune_gc(freeze=False)

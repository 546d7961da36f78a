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

The worker. gunicorn's ``gthread`` worker keeps connections alive (a phone sends a play,
then another, on one connection): its main thread waits for a connection to have a
request and hands it to a pool of threads. With one thread per worker (see below) the
pool only adds a handover: the request waits for the pool's thread to wake, and while it
runs, the main thread, woken by each request that arrives on another connection, takes
the interpreter's lock from it at every SQLite call. :class:`Worker` is ``gthread`` whose
pool of one runs each request at once on the main thread: the same worker otherwise
(the same connections kept alive, the same timeouts). In ``benchmarks/load.py`` it made
a third of the context switches, 15% less CPU per request and a quarter more plays per
second (benchmarks/README.md). What changes besides: the worker tells gunicorn's
arbiter it is alive only between requests, and reading a request now happens on the
main thread too. A phone that stalls half way through sending one (its wifi lost)
used to hold the pool's one thread for as long as it stalled, every other phone of
that worker waiting behind it; now after gunicorn's ``timeout`` (30 s) the arbiter
restarts the worker (its kept-alive connections are dropped, the phones reconnect, its
memos start empty). The app's own work never comes near 30 s. A new connection that
sends nothing holds the worker up to 5 s either way (gthread waits that long for its
first bytes). And a stop signal (SIGINT, SIGQUIT) that lands while a response is being
sent ends the worker after that request rather than at once.
"""
from __future__ import annotations

import gc
from concurrent import futures

from gunicorn.workers.gthread import ThreadWorker

# The load benchmark's settings (benchmarks/README.md says why they were chosen).
worker_class = "scorekeeper.serving.Worker"  # gthread (keeps connections alive), see above
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


class RunAtOnce(futures.Executor):
    """A pool of no threads: what is submitted runs at once, on the thread submitting it."""

    def submit(self, fn, /, *args, **kwargs) -> futures.Future:
        future: futures.Future = futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - the future holds it, as a pool's would
            future.set_exception(e)
        return future


class Worker(ThreadWorker):
    """gunicorn's gthread worker; with one thread, each request runs on its main thread."""

    def get_thread_pool(self) -> futures.Executor:  # gthread's hook for its pool
        return RunAtOnce() if self.cfg.threads == 1 else super().get_thread_pool()

"""Writers take turns in a queue, not by SQLite's sleep-and-retry.

Every write transaction starts with ``BEGIN IMMEDIATE`` (``db.write``), which takes
SQLite's write lock or, if another connection has it, retries under the busy timeout.
SQLite's busy handler retries by sleeping 1, 2, 5, 10, 15, 20, 25 … 100 ms: under many
phones that is where the time goes. A writer that arrives 0.1 ms after another has
begun sleeps a millisecond or more, a queue of writers sleeps in longer and longer
steps, and the processor idles while phones wait (the load benchmark measured writes
that waited a second this way with ten tables).

So the app's connections (``db.connect``) wait for the write lock in a queue that wakes
the next writer the moment the last one ends: a thread lock per database within a
process, then an advisory ``flock`` on a small file beside the database, shared by
every process serving it (gunicorn's workers). SQLite's own locking still decides;
this only means it almost never has to say "busy". A process that dies (even by
``kill -9``) lets go of its ``flock`` at once: the kernel releases it.

The lock file is ``<database>-writer``; it holds nothing and may be deleted while no
server runs. It is a separate file on purpose: opening and closing a descriptor on the
database file itself would drop SQLite's POSIX locks (https://www.sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_).
"""
from __future__ import annotations

import fcntl
import os
import threading

_locks: dict[str, "WriterQueue"] = {}
_registry = threading.Lock()


class WriterQueue:
    """The write lock of one database in this process: a thread lock, then the file lock."""

    def __init__(self, path: str) -> None:
        self.thread_lock = threading.Lock()
        self.fd = os.open(path + "-writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        self.pid = os.getpid()

    def acquire(self, timeout: float) -> bool:
        """Wait for the turn to write; False if it did not come within ``timeout`` seconds
        (the caller then goes on to SQLite, whose busy timeout decides)."""
        if not self.thread_lock.acquire(timeout=timeout):
            return False
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX)  # the other processes: woken by the kernel
        except OSError:
            self.thread_lock.release()
            return False
        return True

    def release(self) -> None:
        try:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.thread_lock.release()


def queue_for(path: str) -> WriterQueue | None:
    """The queue of this database file in this process (None for ":memory:" and the like)."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    with _registry:
        queue = _locks.get(path)
        if queue is None or queue.pid != os.getpid():  # a forked child makes its own
            try:
                queue = _locks[path] = WriterQueue(path)
            except OSError:  # a read-only directory: SQLite's locking alone will do
                return None
        return queue

"""gunicorn's worker for the app (scorekeeper/serving.py): gthread, whose pool of one
runs each request at once on the main thread.

The worker serving real requests, keep-alive connections and a kill -9 in the middle of
them is exercised by tests/test_crash.py (benchmarks/server.py starts it by default).
"""
from __future__ import annotations

import logging
import threading
from concurrent import futures

import pytest
from gunicorn.config import Config

from benchmarks import server
from scorekeeper import serving


def test_what_is_submitted_runs_at_once_on_the_submitting_thread():
    ran = []
    future = serving.RunAtOnce().submit(lambda a, b=0: ran.append(threading.current_thread()) or a + b, 2, b=3)
    assert ran == [threading.current_thread()]
    assert future.done() and future.result() == 5
    told = []
    future.add_done_callback(told.append)  # already done: called at once, as gthread expects
    assert told == [future]


def test_a_failure_is_held_by_the_future_as_a_pool_would():
    future = serving.RunAtOnce().submit(lambda: 1 / 0)
    assert future.done()
    with pytest.raises(ZeroDivisionError):
        future.result()


@pytest.mark.parametrize("threads, pool", [(1, serving.RunAtOnce), (4, futures.ThreadPoolExecutor)])
def test_one_thread_is_the_main_thread_more_are_a_pool(threads, pool):
    cfg = Config()
    cfg.set("threads", threads)
    worker = serving.Worker(0, 0, [], None, 30, cfg, logging.getLogger("test"))
    made = worker.get_thread_pool()
    try:
        assert type(made) is pool
    finally:
        made.shutdown(wait=False)
        worker.tmp.close()


def test_the_app_is_served_by_this_worker_as_configured():
    assert serving.worker_class == server.GUNICORN_CLASS == "scorekeeper.serving.Worker"
    assert serving.threads == 1
    command = server.command("gunicorn", 8000)
    assert "--worker-class=scorekeeper.serving.Worker" in command

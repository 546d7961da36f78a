"""gunicorn's settings for serving the app for real: ``gunicorn -c python:scorekeeper.serving``.

``make serve`` and the load benchmark (``benchmarks/server.py``) start gunicorn with this
module as its configuration; options on the command line override what it sets.

Stock parts, stock settings, but for these:

- ``gevent`` workers, one per core: each connection is served by a greenlet of its own,
  so a phone keeps its connection alive between its plays and its live updates, and a
  phone whose wifi drops half way through sending a request holds nothing but its own
  greenlet while gunicorn waits for the rest: the other phones are served meanwhile,
  however many such phones there are, up to the thousand connections a worker takes
  (``tests/test_stalled_phones.py`` holds a hundred; with ``gthread`` a stalled request
  holds one of the worker's threads, and as many stalled requests as threads stop it).
  SQLite's calls do not yield to other greenlets, but each takes milliseconds.
- a thousand connections a worker (gunicorn's default, said here): each phone with a
  game open holds one for its stream of live changes (web/live.py), and one more while
  it sends a play (kept ten seconds after). 100 tables of 5 phones hold 500 streams and
  at most 500 others, over two workers: a worker whose thousand are taken accepts no
  more, and the other takes them, so two workers hold about a thousand phones.
- the streams end as a worker stops (:func:`post_worker_init`): a stopping worker waits
  for its requests, and a stream never ends by itself for minutes. A stream's connection
  closes with it (:func:`pre_request`): kept alive, a stopping worker would wait for a
  next request on it too, and a browser opens its next stream on a new connection.
- a connection is kept ten seconds after its last answer (gunicorn's default: two), and a
  request's header lines have as long to arrive: on poor wifi a request may take a few
  seconds to get through; its body then has as long again (the app's deadline:
  web/security.py's BODY_SECONDS). A stalled request is then closed, so that stalled
  phones never fill the thousand connections a worker takes for long (README, "Slow or
  stalled phones"). A stopping server waits as long for its connections to finish.
- the app made once, before the workers are forked (``preload_app``): its database is
  created and migrated once, not by two workers at the same moment.
- no control socket: gunicorn's default one lies at one path in the user's home, shared
  by every gunicorn of that user (a second server would take it over).
- a request whose body is larger than the app takes (an upload over 1 MB) is answered
  413 by the app without its body being read; gunicorn would then say "keep-alive" and
  close the connection anyway, and the phone's next request on it would get nothing. So
  such a request is marked to close (:func:`pre_request`), as is one whose body comes in
  chunks (its size is known only at its end; browsers send a form's size first): the
  answer says ``Connection: close``, and the phone opens a new connection.
"""
from __future__ import annotations

from scorekeeper.web.security import MAX_UPLOAD_BYTES

worker_class = "gevent"
workers = 2  # one per core
keepalive = 10
worker_connections = 1000  # per worker: a stream and a play's connection per phone
preload_app = True
control_socket_disable = True


def when_ready(server) -> None:  # gunicorn's server hook, in the master before the workers fork
    """What every worker's first pages would otherwise each read for themselves: the
    hyphenation patterns of the names in the score columns (views/helpers.py)."""
    from scorekeeper.web.views import helpers

    helpers.hyphenations()


def post_worker_init(worker) -> None:  # gunicorn's server hook, in each worker before it serves
    """The live streams end when the worker stops (``worker.alive``: False once told to)."""
    from scorekeeper.web import live

    live.while_serving(lambda: worker.alive)


def pre_request(worker, req) -> None:  # gunicorn's server hook, before the app sees a request
    """A body the app may not read to its end closes the connection after the answer: one
    said to be over the limit, or one sent in chunks, whose size is known only at its end.
    So does a stream of a game's changes (``…/events``), when it ends."""
    headers = dict(req.headers)
    length = headers.get("CONTENT-LENGTH", "")
    too_long = bool(length) and (not length.isdigit() or int(length) > MAX_UPLOAD_BYTES)
    if "TRANSFER-ENCODING" in headers or too_long or req.path.endswith("/events"):
        req.force_close()

"""The app's URLs: the templates' ``url_for``, each URL built once and kept, by everything
it is built from; and redirects without a body (:class:`App`).

A table page names some twenty URLs (its forms, the aces' buttons, the Edit link of each
new row of the log, the style sheet and script), and the live regions a few more, on
every request; building one through Flask (its URL defaults, which turn a game's id into
its link: ``links.game_link``, and werkzeug's URL map) cost a few percent of every page.
A URL depends only on the endpoint, the values given, the game's key the id stands for
and where the app is mounted (``SCRIPT_NAME``); so it is kept by exactly those. A call
with any of ``url_for``'s own options (``_external``, ``_anchor``…), a relative endpoint
or a value that cannot be a key is simply built by Flask.
"""
from __future__ import annotations

from flask import Flask, current_app, request, url_for

from . import links
from .replay_cache import Memo

KEPT = 8192  # URLs per app: a few dozen per game being played


def kept_url_for(endpoint: str, **values) -> str:
    if endpoint.startswith(".") or any(name.startswith("_") for name in values):
        return url_for(endpoint, **values)
    app = current_app
    links.put_key(app.url_map, endpoint, values)  # as links.game_link does for Flask
    try:
        # Each value with its type: True and 1 are equal keys, but not the same URL.
        key = (request.script_root, endpoint,
               tuple([(name, value, type(value)) for name, value in sorted(values.items())]))
        hash(key)
    except TypeError:  # a value that is no key (a list of query values): built each time
        return url_for(endpoint, **values)
    return app.extensions["kept_urls"].get(key, lambda: url_for(endpoint, **values))


class App(Flask):
    """Flask, whose redirects carry no body.

    Every play a phone logs is answered with a redirect (303) to the page that shows it.
    Flask's redirect carries a small HTML page ("Redirecting…") for clients that do not
    follow it; every browser does. gunicorn writes a response's headers and its body
    with two writes to the socket, and the phone's side is woken for each: an empty body
    (``Content-Length: 0``) goes out with the headers, in one. (The location is made a
    URI when the headers are sent, as for werkzeug's own redirect.)
    """

    def redirect(self, location: str, code: int = 302):
        return self.response_class(b"", status=code, headers={"Location": location})


def init_app(app: Flask) -> None:
    app.extensions["kept_urls"] = Memo(KEPT)
    app.jinja_env.globals["url_for"] = kept_url_for

"""The headers every response carries, and the limits on what a request may send.

A game's links carry its secrets (links.py), so the pages must not leak them: no Referer
leaves the site (``Referrer-Policy: no-referrer``), and no page is kept in a cache
(``Cache-Control: no-store``) where the next person on a shared phone or a proxy could
read it back. (The phone's own service worker, static/sw.js, keeps a copy of the table
pages it opened, for offline: as the phone's history does, in its own storage.) The
Content-Security-Policy allows only this server's own script, style sheet and images,
and no inline script or style: the pages are built to work under it (no ``style=`` or
``on…=`` attributes; the chart and QR codes are SVG drawn with presentation attributes
and classes), and the browser tests check that Chromium reports no violation on any
screen.
"""
from __future__ import annotations

from flask import Flask, Response, abort, render_template, request
from werkzeug.exceptions import RequestEntityTooLarge

from .words import page_text

# Each directive names only 'self' (images may also be data: URIs); nothing inline.
CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "font-src": "'self'",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
CONTENT_SECURITY_POLICY = "; ".join(f"{name} {value}" for name, value in CSP.items())

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",  # a game's URL is its secret: never sent onwards
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate CSP 2
    "Cross-Origin-Opener-Policy": "same-origin",
}

# An uploaded game file: a usual game is tens of kilobytes; the largest a game can be (its
# 100 rounds each as long as its cards allow, as the app writes it) about 1.3 MB.
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
# The longest a request's body may take to arrive once its headers have: a phone on poor
# wifi sends a form in well under a second, the largest game file in a few.
BODY_SECONDS = 10


def init_app(app: Flask) -> None:
    """The headers, and the body read before anything looks at it (before the CSRF check:
    this must be called before ``CSRFProtect(app)``)."""

    @app.before_request
    def read_the_body() -> None:
        """A body that cannot be read as it says it is sent (a chunk of no size, a
        connection dropped half way, one that has not arrived within BODY_SECONDS) is
        refused here, in words: otherwise the first to read it (the CSRF check, a form)
        would fail with the server's own error, or wait for it as long as the phone likes.

        The deadline is set on the connection where the server hands it to the app
        (gunicorn's ``gunicorn.socket``: a greenlet per connection waits on it); the
        server itself closes a connection whose request line and headers take longer than
        its keep-alive time (scorekeeper/serving.py)."""
        if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
            return
        connection = request.environ.get("gunicorn.socket")
        if connection is not None:
            connection.settimeout(BODY_SECONDS)
        try:
            request.form  # read and kept for the rest of the request  # noqa: B018
        except RequestEntityTooLarge:
            raise  # a body over the limit: its own page (413)
        except Exception:  # noqa: BLE001 - the server's reader (or Werkzeug's) fails in its own ways
            abort(Response(render_template(
                "error.html", title=page_text("The request could not be read"),
                message=page_text("What was sent did not arrive whole: nothing was saved. Try "
                                  "again.")), 400))
        finally:
            if connection is not None:
                connection.settimeout(None)

    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        # Every page but the static files may carry a game's secret (a game page, the
        # history list of this phone's links, a form's CSRF token): never store them.
        if request.endpoint != "static":
            response.headers["Cache-Control"] = "no-store"
            response.headers.pop("Expires", None)
        return response

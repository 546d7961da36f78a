"""The site's own answers, for every page alike: the error pages (a stale form, a
read-only link, a page that is not there, a request too large, a server fault) in the
phone's language, the service worker that keeps table pages for offline, and the web
app manifest that lets a phone install the app."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from flask_babel import get_locale
from flask_wtf.csrf import CSRFError

from ...storage.kernel import NotFound
from ..words import page_text

bp = Blueprint("site", __name__)

THEME_LIGHT, THEME_DARK = "#0b4f6c", "#0d1b24"


@bp.app_errorhandler(CSRFError)
def csrf_error(error: CSRFError):
    return render_template(
        "error.html", title=page_text("The form could not be sent"),
        message=page_text("This form's security token is missing or stale. Go back, reload "
                          "the page and try again: nothing was saved."),
    ), 400


@bp.app_errorhandler(403)
def forbidden(_error):
    return render_template(
        "error.html", title=page_text("Read-only link"),
        message=page_text("This link shows the game but cannot change it: ask for the edit "
                          "link (its QR code is on the game page of a phone that has it). "
                          "Nothing was saved."),
    ), 403


@bp.app_errorhandler(405)
def method_not_allowed(error):
    """A page asked for in a way it does not answer (a form's address opened as a page):
    said in words, with the methods it does answer (``Allow``)."""
    return render_template(
        "error.html", title=page_text("Not a page to open"),
        message=page_text("This address takes a form sent from the app's pages, not a page "
                          "opened on its own: go back and use the page's buttons. Nothing was "
                          "saved."),
    ), 405, dict(error.get_headers())


@bp.app_errorhandler(413)
def too_large(_error):
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    megabytes = f"{limit / 2**20:g}"
    if limit >= 2**20:
        message = page_text(
            "A game file may be up to %(size)s MB (a long game takes a few dozen KB), and this "
            "one is larger: choose the file saved with “Download the game file”. Nothing was "
            "saved.", size=megabytes)
    else:
        message = page_text(
            "A game file may be up to %(size)s KB (a long game takes a few dozen KB), and this "
            "one is larger: choose the file saved with “Download the game file”. Nothing was "
            "saved.", size=max(limit // 1024, 1))
    return render_template("error.html", title=page_text("The file is too big"),
                           message=message), 413


@bp.app_errorhandler(500)
def server_error(_error):
    return render_template(
        "error.html", title=page_text("Something went wrong"),
        message=page_text("The server could not answer this request. Go back, reload the "
                          "page and try again."),
    ), 500


@bp.app_errorhandler(NotFound)
@bp.app_errorhandler(404)
def not_found(_error):
    return render_template(
        "error.html", title=page_text("Not found"),
        message=page_text("There is no such page, game or play here."),
    ), 404


@bp.route("/sw.js")
def service_worker() -> Response:
    """The service worker (static/sw.js), served from the top of the site so that its
    scope is every page: it keeps the table pages this phone opened for offline."""
    response = current_app.send_static_file("sw.js")
    response.mimetype = "text/javascript"
    return response


@bp.route("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: installable on a phone's home screen."""
    data = {
        "name": page_text("Scorekeeper: the score pad for rummy"),
        "short_name": "Scorekeeper",
        "description": page_text("The score pad for a rummy table, scored from the cards."),
        "lang": str(get_locale() or "en").replace("_", "-"),
        "start_url": request.script_root + "/",
        "scope": request.script_root + "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": THEME_DARK,
        "theme_color": THEME_LIGHT,
        "icons": [
            {"src": url_for("static", filename="icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = jsonify(data)
    response.mimetype = "application/manifest+json"
    return response

"""The ``scorekeeper`` command: score a game file, list a variant's rule options; and, for
whoever runs the server, the app's database: games in and out, a backup, the games' links,
the players (every game: the server's owner is not limited to one phone's links)."""
from __future__ import annotations

import json
import sys

import click

from . import gamefile
from .games import registry
from .games.errors import ScorekeeperError


def fail(message: str) -> None:
    """One line on standard error, nothing on standard output, exit status 2."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """scorekeeper: the score pad for a rummy table."""


@main.command()
@click.argument("file")
def score(file: str) -> None:
    """Recompute every score of a game file (FILE, or - for standard input) as JSON."""
    try:
        if file == "-":
            text = sys.stdin.read()
        else:
            with open(file, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {file}: {getattr(e, 'strerror', None) or e}")
    try:
        result = gamefile.score_text(text)
    except ScorekeeperError as e:
        fail(str(e))
    except (RecursionError, MemoryError):
        fail("cannot score this file: it is too deeply nested or too large")
    except Exception as e:  # never a traceback: a bug still gets one plain line
        fail(f"cannot score this file: {type(e).__name__}: {e}")
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))


def format_rulebook(book) -> str:
    lines = [f"Rule options for {book.variant} (game file: \"rules\": {{\"name\": value}})", ""]
    for option in book:
        default = option.describe_default()
        mark = "  [house value: confirm at the table]" if option.house_value else ""
        lines.append(f"{option.name} = {default}{mark}")
        lines.append(f"    {option.help}")
        lines.append(f"    takes: {option.describe_allowed()}; source: {option.source}")
    return "\n".join(lines)


@main.command()
@click.argument("variant")
def rules(variant: str) -> None:
    """List a variant's rule options with their defaults, sources and house values."""
    found = registry.get(variant)
    if found is None:
        fail(f"unknown variant {variant!r} (expected one of: {', '.join(registry.VARIANTS)})")
    click.echo(format_rulebook(found.rules))


def _database(path: str | None):
    """The app's database: --database, else SCOREKEEPER_DATABASE, else the instance folder's."""
    from . import create_app
    from .storage.db import connect

    config = {"DATABASE": path} if path else None
    app = create_app(config) if config else create_app()
    return connect(app.config["DATABASE"])


DATABASE_OPTION = click.option(
    "--database", "database", metavar="PATH",
    help="The SQLite file (default: SCOREKEEPER_DATABASE, else instance/scorekeeper.db).",
)


@main.command("import")
@click.argument("file")
@DATABASE_OPTION
def import_(file: str, database: str | None) -> None:
    """Add a game from a game file (FILE, or - for standard input) to the app."""
    from .storage.games import import_document
    from .storage.kernel import AlreadyHere, Refused

    try:
        text = sys.stdin.read() if file == "-" else open(file, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {file}: {getattr(e, 'strerror', None) or e}")
    db = _database(database)
    try:
        game_id = import_document(db, gamefile.parse_json(text))
    except AlreadyHere as e:
        fail(f"{e.message.rstrip('.')}: game {e.game_id}, {_edit_path(database, e.game_id)}")
    except Refused as e:
        fail(e.message)
    except ScorekeeperError as e:
        fail(str(e))
    finally:
        db.close()
    click.echo(f"imported as game {game_id}: {_edit_path(database, game_id)}")


def _edit_path(database: str | None, game_id: int) -> str:
    from .storage.kernel import secrets_of

    db = _database(database)
    try:
        return f"/g/{game_id}-{secrets_of(db, game_id)[0]}/table"
    finally:
        db.close()


@main.command()
@DATABASE_OPTION
def games(database: str | None) -> None:
    """List the games in the app's database with their edit and read-only links."""
    from .storage.kernel import list_games, secrets_of

    db = _database(database)
    try:
        ids = [row["id"] for row in db.query("SELECT id FROM games")]
        for game in list_games(db, ids):
            edit, view = secrets_of(db, game["id"])
            click.echo(f"game {game['id']}: {', '.join(game['players'])} — {game['status']}")
            click.echo(f"  edit link:      /g/{game['id']}-{edit}/table")
            click.echo(f"  read-only link: /g/{game['id']}-{view}/table")
    finally:
        db.close()


def _player(db, given: str):
    """The player PLAYER names: an id (as ``scorekeeper players`` shows it) or an exact name."""
    from .storage import players
    from .storage.kernel import key_of

    everyone = players.everyone(db, players.EVERY_GAME)
    if given.isdigit():
        found = next((p for p in everyone if p.id == int(given)), None)
        if found is not None:
            return found
    found = next((p for p in everyone if p.name == given), None)
    if found is None:
        near = next((p for p in everyone if key_of(p.name) == key_of(given)), None)
        hint = f" (did you mean {near.name!r}, player {near.id}?)" if near else ""
        fail(f"there is no player {given!r}{hint}: scorekeeper players lists them")
    return found


@main.command("players")
@DATABASE_OPTION
def players_(database: str | None) -> None:
    """List every player with their number of games, the most recently played first."""
    from .storage import players

    db = _database(database)
    try:
        for p in players.everyone(db, players.EVERY_GAME):
            last = f", last played {p.last_played[:10]}" if p.last_played else ""
            click.echo(f"player {p.id}: {p.name} — {p.games} game{'' if p.games == 1 else 's'}{last}")
    finally:
        db.close()


@main.command("rename-player")
@click.argument("player")
@click.argument("new_name")
@DATABASE_OPTION
def rename_player(player: str, new_name: str, database: str | None) -> None:
    """Rename PLAYER (an id or the exact name) to NEW_NAME in every game they played."""
    from .storage import players
    from .storage.kernel import NotFound, Refused

    db = _database(database)
    try:
        found = _player(db, player)
        try:
            changed = players.rename(db, found.id, new_name, editable=players.EVERY_GAME)
        except (Refused, NotFound) as e:
            fail(getattr(e, "message", None) or str(e))
        name = players.get(db, found.id, players.EVERY_GAME).name
    finally:
        db.close()
    if not changed:
        click.echo(f"nothing to change: player {found.id} is called {name} already")
        return
    click.echo(f"renamed {found.name} to {name} in {len(changed)} game{'' if len(changed) == 1 else 's'}")


@main.command("merge-players")
@click.argument("player")
@click.argument("into")
@DATABASE_OPTION
def merge_players(player: str, into: str, database: str | None) -> None:
    """Merge PLAYER into INTO (each an id or the exact name): two entries for one person.
    Every game of PLAYER then names INTO, and PLAYER is gone; this cannot be undone."""
    from .storage import players
    from .storage.kernel import NotFound, Refused

    db = _database(database)
    try:
        source, target = _player(db, player), _player(db, into)
        try:
            changed = players.merge(db, source.id, target.id, editable=players.EVERY_GAME)
        except (Refused, NotFound) as e:
            fail(getattr(e, "message", None) or str(e))
    finally:
        db.close()
    click.echo(f"merged {source.name} into {target.name}: {len(changed)} "
               f"game{'' if len(changed) == 1 else 's'} changed")


@main.command()
@click.argument("game_id", type=int)
@DATABASE_OPTION
def export(game_id: int, database: str | None) -> None:
    """Print a game's game file (the format scorekeeper score reads)."""
    from .storage.games import export_document
    from .storage.kernel import NotFound

    db = _database(database)
    try:
        doc = export_document(db, game_id)
    except NotFound as e:
        fail(str(e))
    finally:
        db.close()
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))


@main.command()
@click.argument("path")
@DATABASE_OPTION
def backup(path: str, database: str | None) -> None:
    """Copy the whole database to PATH, consistently, even while the server runs."""
    from .storage.kernel import backup as backup_database

    db = _database(database)
    try:
        backup_database(db, path)
    except Exception as e:  # sqlite3 errors: one plain line
        fail(f"cannot back up to {path}: {e}")
    finally:
        db.close()
    click.echo(f"backed up to {path}")


if __name__ == "__main__":
    main()

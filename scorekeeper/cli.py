"""The ``scorekeeper`` command: score a game file, list a variant's rule options; and, for
whoever runs the server, the app's database: games in and out, a backup, the games' links,
the players (every game: the server's owner is not limited to one phone's links), the
finished rounds' kept results made again from the logs."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from . import gamefile
from .games import registry
from .games.errors import ScorekeeperError


def fail(message: str) -> NoReturn:
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


def _database(path: str | None, create: bool = False):
    """The app's database: --database, else SCOREKEEPER_DATABASE, else the instance
    folder's; brought up to date. Only ``create`` (an import) makes one that is not there:
    a command that reads refuses a path with no database (a typo), rather than making one."""
    from .storage import entries
    from .storage.db import connect
    from .storage.migrations import migrate
    from .web import default_database

    entries.BY.set(lambda _game_id: "command line")  # the record of changes says where each came from

    path = path or default_database()
    if not create and not os.path.exists(path):
        fail(f"there is no database at {path}: give the app's with --database PATH (or "
             "SCOREKEEPER_DATABASE), or start the app once to make one")
    if create:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = connect(path)
    migrate(db)
    return db


DATABASE_OPTION = click.option(
    "--database", "database", metavar="PATH",
    help="The SQLite file (default: SCOREKEEPER_DATABASE, else instance/scorekeeper.db).",
)
BASE_URL_OPTION = click.option(
    "--base-url", "base_url", metavar="URL",
    help="The server's address as the phones reach it (http://192.168.1.20:5000): links are "
         "printed whole.",
)


def _link(base_url: str | None, game_id: int, secret: str) -> str:
    return f"{(base_url or '').rstrip('/')}/g/{game_id}-{secret}/table"


def _group_link(base_url: str | None, group_id: int, secret: str) -> str:
    return f"{(base_url or '').rstrip('/')}/group/{group_id}-{secret}"


def _link_hint(base_url: str | None) -> None:
    if not base_url:
        click.echo("(links are paths: put the server's address before them, as phones reach it, "
                   "e.g. http://192.168.1.20:5000/g/…; or give --base-url)")


@main.command("import")
@click.argument("file")
@DATABASE_OPTION
@BASE_URL_OPTION
@click.option("--group", "group_id", type=int, metavar="ID",
              help="Into this group (its players matched by name; the same file imported into it "
                   "twice is one game); by default a new group of its own (docs/groups.md).")
def import_(file: str, database: str | None, base_url: str | None, group_id: int | None) -> None:
    """Add a game from a game file (FILE, or - for standard input) to the app."""
    from .storage.games import import_document
    from .storage.kernel import AlreadyHere, NotFound, Refused, group_of, group_secrets, secrets_of

    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {file}: {getattr(e, 'strerror', None) or e}")
    db = _database(database, create=True)
    try:
        if group_id is not None:
            try:
                group_secrets(db, group_id)
            except NotFound:
                fail(f"there is no group {group_id}: scorekeeper games lists each game's group")
        try:
            game_id = import_document(db, gamefile.parse_json(text), group_id)
        except AlreadyHere as e:
            fail(f"{e.reason}: game {e.game_id}, {_link(base_url, e.game_id, secrets_of(db, e.game_id)[0])}")
        except Refused as e:
            fail(e.reason)  # as scorekeeper score words it
        except ScorekeeperError as e:
            fail(str(e))
        click.echo(f"imported as game {game_id}: {_link(base_url, game_id, secrets_of(db, game_id)[0])}")
        group = group_of(db, game_id)
        click.echo(f"  in group {group}: {_group_link(base_url, group, group_secrets(db, group)[0])}")
    finally:
        db.close()
    _link_hint(base_url)


@main.command()
@DATABASE_OPTION
@click.option("--game", "game_ids", type=int, multiple=True, metavar="ID",
              help="Only this game (may be given again); by default every game.")
def rebuild(database: str | None, game_ids: tuple[int, ...]) -> None:
    """Make every finished round's kept results again from the games' logs (the app keeps
    them to read a round without the rounds before it; they are derived, never the only
    copy), and say which games changed."""
    from .storage import games as stored_games
    from .storage import results
    from .storage.kernel import NotFound, Refused

    db = _database(database)
    try:
        ids = list(game_ids) or [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
        changed = unread = 0
        for game_id in ids:
            before = results.snapshot(db, game_id)
            try:
                kept = stored_games.rebuild(db, game_id)
            except NotFound as e:
                fail(e.reason)  # no such game, or a game of a variant this version does not have
            except Refused as e:
                unread += 1
                click.echo(f"game {game_id}: its log no longer replays ({e.reason}); its results are as they were")
                continue
            if results.snapshot(db, game_id) != before:
                changed += 1
                click.echo(f"game {game_id}: {kept} rounds' results made again (they differed)")
        click.echo(f"{len(ids)} games: {changed} changed, {len(ids) - changed - unread} as they were"
                   + (f", {unread} not replayed" if unread else ""))
    finally:
        db.close()
    if unread:
        sys.exit(1)


@main.command()
@DATABASE_OPTION
@BASE_URL_OPTION
def games(database: str | None, base_url: str | None) -> None:
    """List the games in the app's database with their edit and read-only links, and the
    edit link of each one's group."""
    from .storage.kernel import group_secrets, list_games, secrets_of

    db = _database(database)
    try:
        ids = [row["id"] for row in db.query("SELECT id FROM games")]
        for game in list_games(db, ids):
            edit, view = secrets_of(db, game["id"])
            click.echo(f"game {game['id']}: {', '.join(game['players'])} — {game['status']}")
            click.echo(f"  edit link:      {_link(base_url, game['id'], edit)}")
            click.echo(f"  read-only link: {_link(base_url, game['id'], view)}")
            group = game["group_id"]
            click.echo(f"  group {group}:  {_group_link(base_url, group, group_secrets(db, group)[0])}")
    finally:
        db.close()
    _link_hint(base_url)


def _player(db, given: str):
    """The player PLAYER names: an id (as ``scorekeeper players`` shows it) or an exact name."""
    from .storage import players
    from .storage.kernel import key_of

    everyone = players.everyone(db, players.EVERY_GAME)
    if given.isdigit():
        found = next((p for p in everyone if p.id == int(given)), None)
        if found is not None:
            return found
    named = [p for p in everyone if p.name == given]
    if len(named) > 1:  # one in each of several groups (docs/groups.md)
        ids = ", ".join(str(p.id) for p in sorted(named, key=lambda p: p.id))
        fail(f"several players are called {given!r}, one per group (players {ids}): "
             "give the id, as scorekeeper players shows it")
    found = named[0] if named else None
    if found is None:
        near = next((p for p in everyone if key_of(p.name) == key_of(given)), None)
        hint = f" (did you mean {near.name!r}, player {near.id}?)" if near else ""
        fail(f"there is no player {given!r}{hint}: scorekeeper players lists them")
    return found


@main.command("players")
@DATABASE_OPTION
def players_(database: str | None) -> None:
    """List every player with their number of games and their group, the most recently
    played first."""
    from .storage import players

    db = _database(database)
    try:
        for p in players.everyone(db, players.EVERY_GAME):
            last = f", last played {p.last_played[:10]}" if p.last_played else ""
            click.echo(f"player {p.id}: {p.name} — {p.games} game{'' if p.games == 1 else 's'}{last}, "
                       f"group {players.group_of(db, p.id)}")
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
            fail(getattr(e, "reason", None) or str(e))
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
            fail(getattr(e, "reason", None) or str(e))
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
@click.option("--force", is_flag=True, help="Replace PATH if it is there already.")
def backup(path: str, database: str | None, force: bool) -> None:
    """Copy the whole database to PATH, consistently, even while the server runs."""
    from .storage.kernel import backup as backup_database

    if os.path.exists(path) and not force:
        fail(f"{path} is there already: give another path, or --force to replace it")
    db = _database(database)
    partial = f"{path}.partial"  # the copy is made beside it, then put in its place at once
    try:
        backup_database(db, partial)
        os.replace(partial, path)
    except Exception as e:  # sqlite3 and file errors: one plain line
        if os.path.exists(partial):
            os.remove(partial)
        fail(f"cannot back up to {path}: {getattr(e, 'strerror', None) or e}")
    finally:
        db.close()
    click.echo(f"backed up to {path}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to serve on: 0.0.0.0 for every address of this machine "
                   "(the phones on the table's wifi).")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@DATABASE_OPTION
def serve(host: str, port: int, database: str | None) -> None:
    """Serve the app for real: gunicorn with the settings of scorekeeper/serving.py."""
    env = dict(os.environ)
    if database:
        env["SCOREKEEPER_DATABASE"] = os.path.abspath(database)
    command = [sys.executable, "-m", "gunicorn", "--config", "python:scorekeeper.serving",
               "--bind", f"{host}:{port}", "scorekeeper:create_app()"]
    click.echo(f"serving on http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    os.execvpe(command[0], command, env)


if __name__ == "__main__":
    main()

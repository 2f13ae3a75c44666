"""The `pantheon` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Mapping

from domain import games
from service.config import BY_NAME, SETTINGS, Setting, Settings


def _board(args: argparse.Namespace) -> int:
    game = games.get(args.game)
    edition = args.edition or game.editions[0]
    if edition not in game.editions:
        print(f"--edition must be one of {', '.join(game.editions)} for {game.kind}", file=sys.stderr)
        return 2
    with open(args.svg, "w", encoding="utf-8") as out:
        out.write(game.render_board(edition))
    print(f"wrote {args.svg}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from .simulate import export_records, run

    allowed = ["mixed", *map(str, games.get(args.game).players)]
    if args.players not in allowed:
        print(f"--players must be one of {', '.join(allowed)} for {args.game}", file=sys.stderr)
        return 2
    result, records = run(args.games, args.players, args.seed, check=not args.no_check, kind=args.game)
    if args.export:
        export_records(records, args.export)
    for record in records:
        for problem in record.errors + record.violations:
            print(f"game seed {record.seed.hex()[:12]}: {problem}", file=sys.stderr)
    print(json.dumps(result))
    return 0 if not result["errors"] and not result["invariant_violations"] else 1


def _serve(args: argparse.Namespace) -> int:
    from .roles import serve

    serve(args.settings, args.environ)
    return 0


def _api(args: argparse.Namespace) -> int:
    from .roles import run_api

    run_api(args.settings)
    return 0


def _worker(args: argparse.Namespace) -> int:
    from .roles import run_worker

    run_worker(args.settings, burst=args.burst)
    return 0


def _archiver(args: argparse.Namespace) -> int:
    from .roles import run_archiver

    run_archiver(args.settings, once=args.once)
    return 0


def _alive(args: argparse.Namespace) -> int:
    from .alive import alive

    return 0 if alive(args.settings, args.role) else 1


def _projector(args: argparse.Namespace) -> int:
    from service.read.process import serve_projector

    settings = args.settings
    options = {
        "batch": args.batch,
        "block_ms": args.block_ms,
        "claim_idle_ms": args.claim_idle_ms,
        "dead_after_ms": args.dead_after_ms,
        "gather_ms": args.gather_ms,
    }
    if args.consumer:
        options["consumer"] = args.consumer
    stats = serve_projector(
        settings.redis_url,
        settings.prefix,
        settings.partitions,
        redis_timeout_s=settings.redis_timeout_s,
        redis_detect_s=settings.redis_detect_s,
        **options,
    )
    print(json.dumps(vars(stats)), flush=True)
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    from service.read.rebuild import run_rebuild

    settings = args.settings
    totals = run_rebuild(
        settings.redis_url,
        settings.prefix,
        settings.partitions,
        concurrency=args.concurrency,
        names=args.only or None,
        redis_timeout_s=settings.redis_timeout_s,
        redis_detect_s=settings.redis_detect_s,
    )
    print(json.dumps(totals), flush=True)
    return 0


def _audit(args: argparse.Namespace) -> int:
    from .audit import audit_command

    return audit_command(args.file, args.game, args.settings, quiet=args.quiet, rerun_bots=args.bots)


def _export(args: argparse.Namespace) -> int:
    from service.audit.archive import export_game

    count = export_game(args.game, sys.stdout.buffer, args.settings)
    print(f"exported {count} events of {args.game}", file=sys.stderr)
    return 0


def _import(args: argparse.Namespace) -> int:
    from service.audit.archive import import_file
    from service.audit.export import ExportError

    try:
        game = import_file(args.file, args.settings)
    except ExportError as error:
        print(f"not imported: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"imported": game}))
    return 0


def _ladder(args: argparse.Namespace) -> int:
    import time

    from service.ai.ladder import ladder, report

    game = games.get(args.game)
    bots = args.bots.split(",")
    unknown = [b for b in bots if b not in game.levels]
    if unknown or len(bots) < 2:
        print(f"--bots needs two or more of {list(game.levels)} (got {args.bots})", file=sys.stderr)
        return 2
    if args.players not in game.players:
        print(f"--players must be one of {game.players} for {game.kind}", file=sys.stderr)
        return 2
    lines, summary = report(
        ladder(bots, args.games, args.players, args.seed, time.perf_counter, args.jobs, game.kind, args.params)
    )
    print("\n".join(lines))
    print(json.dumps(summary))
    return 0


def _game_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game", choices=games.kinds(), default=games.DEFAULT_KIND, help=f"the game (default: {games.DEFAULT_KIND})"
    )


FLAG_PREFIX = "setting_"


def _settings_table() -> str:
    """Every setting, for `pantheon --help`: flag, environment variable, default, meaning."""
    lines = ["settings (each an environment variable and, for the roles that use it, a flag; a flag wins):"]
    for s in SETTINGS:
        flag = s.option if s.flag else "(no flag)"
        lines.append(f"  {flag} / {s.env}  [default: {s.default_text() or 'unset'}; {', '.join(sorted(s.roles))}]")
        lines += textwrap.wrap(s.help, 96, initial_indent="      ", subsequent_indent="      ")
    return "\n".join(lines)


def _checked(setting: Setting):
    """An argparse type: the flag's text as the environment would hold it, once it reads as a value."""

    def check(text: str) -> str:
        try:
            setting.parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"not a valid {setting.option}: {text!r} ({error})") from None
        return text

    return check


def check_settings(role: str, environ: Mapping[str, str] | None = None) -> None:
    """Stop before anything starts, with a sentence, when a setting of `role` cannot be read from
    `environ` (`os.environ` by default)."""
    environ = os.environ if environ is None else environ
    for s in SETTINGS:
        if role in s.roles:
            try:
                s.read(environ)
            except ValueError as error:
                given = environ[s.env] if s.env in environ else s.default_text()
                raise SystemExit(f"pantheon {role}: {s.env}={given!r} is not valid: {error}.") from None


def _settings_flags(p: argparse.ArgumentParser, role: str) -> argparse.ArgumentParser:
    """The flags of the settings that `role` uses (from the one table, service.config.SETTINGS)."""
    group = p.add_argument_group("settings", "each also an environment variable; a flag given wins over it")
    assert group.description is not None  # given just above
    p.set_defaults(settings_role=role)
    for s in SETTINGS:
        if role not in s.roles:
            continue
        default = s.default_text() or "unset"
        if s.flag:
            group.add_argument(
                s.option,
                dest=FLAG_PREFIX + s.name,
                type=_checked(s),
                metavar="VALUE",
                help=f"{s.help} (env {s.env}; default: {default})".replace("%", "%%"),
            )
        else:
            group.description += f"; {s.env} (environment only): {s.help}".replace("%", "%%")
    return p


def apply_flags(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment (`environ`, else `os.environ`) with the settings given as flags over it: what
    the role's `Settings` are read from, and what `serve` hands to the processes it starts (the
    environment itself is left as it is)."""
    environ = os.environ if environ is None else environ
    flags = {
        BY_NAME[name[len(FLAG_PREFIX) :]].env: raw
        for name, raw in vars(args).items()
        if name.startswith(FLAG_PREFIX) and raw is not None
    }
    return {**environ, **flags}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pantheon",
        description="Pantheon game server",
        epilog=_settings_table(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("board", aliases=["map"], help="render a game's board (Pantheon: the map)")
    _game_option(m)
    m.add_argument("--svg", required=True, metavar="FILE", help="write the board as SVG to FILE")
    m.add_argument("--edition", help="the edition of the game's components (default: its first)")
    m.set_defaults(func=_board)
    s = sub.add_parser("simulate", help="play random games and check every invariant")
    _game_option(s)
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--players", default="mixed", help="a number of players the game allows, or mixed (all in turn)")
    s.add_argument("--seed", default="0")
    s.add_argument("--no-check", action="store_true", help="skip the invariant and replay checks (for speed)")
    s.add_argument("--export", metavar="DIR", help="write every game as an auditable JSON Lines file into DIR")
    s.set_defaults(func=_simulate)
    ld = sub.add_parser("ladder", help="play bots against each other (seats rotated); win rates")
    _game_option(ld)
    ld.add_argument("--games", type=int, default=20)
    ld.add_argument("--bots", required=True, help="comma-separated bot names, e.g. greedy,random")
    ld.add_argument("--players", type=int, default=2)
    ld.add_argument("--seed", default="0")
    ld.add_argument("--jobs", type=int, default=1, help="games played in this many processes at once (same results)")
    ld.add_argument(
        "--params", type=json.loads, default={}, help='bots\' parameters, e.g. \'{"expert": {"iterations": 200}}\''
    )
    ld.set_defaults(func=_ladder)
    _settings_flags(
        sub.add_parser("serve", help="run everything on one machine (embedded Redis unless REDIS_URL)"), "serve"
    ).set_defaults(func=_serve)
    _settings_flags(sub.add_parser("api", help="run the HTTP API against REDIS_URL"), "api").set_defaults(func=_api)
    w = _settings_flags(sub.add_parser("worker", help="run an RQ worker for AI turns against REDIS_URL"), "worker")
    w.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    w.set_defaults(func=_worker)
    pr = _settings_flags(
        sub.add_parser("projector", help="keep the read models up to date from the feed (REDIS_URL)"), "projector"
    )
    pr.add_argument("--consumer", help="consumer name in the group (default: host-pid-random)")
    pr.add_argument("--batch", type=int, default=64, help="feed entries per read (default: %(default)s)")
    pr.add_argument(
        "--block-ms", type=int, default=1000, help="the longest one read waits for new entries (default: %(default)s)"
    )
    pr.add_argument(
        "--claim-idle-ms",
        type=int,
        default=1_000,
        help="take over entries another consumer left unacknowledged this long; they are looked for "
        "every quarter of it (default: %(default)s)",
    )
    pr.add_argument(
        "--dead-after-ms",
        type=int,
        default=30_000,
        help="remove from the group consumers silent this long that hold no entries (default: %(default)s)",
    )
    pr.add_argument(
        "--gather-ms",
        type=int,
        default=10,
        help="after a batch, let entries gather this long before reading again: fewer wake-ups per "
        "command, at most this much more lag (default: %(default)s)",
    )
    pr.set_defaults(func=_projector)
    ar = _settings_flags(
        sub.add_parser("archiver", help="move finished and abandoned games out of Redis into the archive (REDIS_URL)"),
        "archiver",
    )
    ar.add_argument("--once", action="store_true", help="one sweep, then stop")
    ar.set_defaults(func=_archiver)
    al = _settings_flags(
        sub.add_parser(
            "alive", help="health check: exit 0 if this host runs a live projector, AI worker or archiver (REDIS_URL)"
        ),
        "alive",
    )
    al.add_argument("role", choices=("projector", "worker", "archiver"))
    al.set_defaults(func=_alive)
    pj = sub.add_parser("projections", help="manage the read models").add_subparsers(dest="action", required=True)
    rb = _settings_flags(
        pj.add_parser("rebuild", help="rebuild every read model from the event streams (REDIS_URL)"), "rebuild"
    )
    rb.add_argument("--concurrency", type=int, default=16, help="games folded at once")
    rb.add_argument("--only", action="append", metavar="NAME", help="rebuild only this projection (repeatable)")
    rb.set_defaults(func=_rebuild)
    a = _settings_flags(
        sub.add_parser("audit", help="check a game: seed, hash chain, every command decided again, AI views, scores"),
        "audit",
    )
    a.add_argument("file", nargs="?", help="an exported game (JSON Lines); no server needed")
    a.add_argument("--game", help="a game id on the server at REDIS_URL")
    a.add_argument("--quiet", action="store_true", help="print only the checks, not the story")
    a.add_argument(
        "--bots",
        action="store_true",
        help="also run every AI command's recorded bot again on its view: it must choose the same command",
    )
    a.set_defaults(func=_audit)
    e = _settings_flags(
        sub.add_parser("export", help="write a game (REDIS_URL) as JSON Lines to standard output"), "export"
    )
    e.add_argument("game")
    e.set_defaults(func=_export)
    i = _settings_flags(
        sub.add_parser("import", help="verify an exported game and recreate it (read-only) at REDIS_URL"), "import"
    )
    i.add_argument("file")
    i.set_defaults(func=_import)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if role := getattr(args, "settings_role", None):
        # the settings, read once here (flags over the environment) and handed to the role
        args.environ = apply_flags(args)
        check_settings(role, args.environ)
        args.settings = Settings.from_environ(args.environ)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

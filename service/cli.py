"""The `pantheon` command line."""

from __future__ import annotations

import argparse
import json
import sys


def _map(args: argparse.Namespace) -> int:
    from domain.pantheon.board import load_board
    from domain.pantheon.svg import render_svg

    with open(args.svg, "w", encoding="utf-8") as out:
        out.write(render_svg(load_board(args.edition)))
    print(f"wrote {args.svg}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from service.simulate import run

    result, records = run(args.games, args.players, args.seed, check=not args.no_check)
    for record in records:
        for problem in record.errors + record.violations:
            print(f"game seed {record.seed.hex()[:12]}: {problem}", file=sys.stderr)
    print(json.dumps(result))
    return 0 if not result["errors"] and not result["invariant_violations"] else 1


def _serve(args: argparse.Namespace) -> int:
    from service.config import Settings
    from service.roles import serve

    serve(Settings())
    return 0


def _api(args: argparse.Namespace) -> int:
    from service.config import Settings
    from service.roles import run_api

    run_api(Settings())
    return 0


def _worker(args: argparse.Namespace) -> int:
    from service.config import Settings
    from service.roles import run_worker

    run_worker(Settings(), burst=args.burst)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pantheon", description="Pantheon game server")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("map", help="render the map")
    m.add_argument("--svg", required=True, metavar="FILE", help="write the map as SVG to FILE")
    m.add_argument("--edition", default="house-1")
    m.set_defaults(func=_map)
    s = sub.add_parser("simulate", help="play random games and check every invariant")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--players", choices=["2", "3", "4", "mixed"], default="mixed")
    s.add_argument("--seed", default="0")
    s.add_argument("--no-check", action="store_true", help="skip the invariant and replay checks (for speed)")
    s.set_defaults(func=_simulate)
    sub.add_parser("serve", help="run everything on one machine (embedded Redis unless REDIS_URL)").set_defaults(func=_serve)
    sub.add_parser("api", help="run the HTTP API against REDIS_URL").set_defaults(func=_api)
    w = sub.add_parser("worker", help="run an RQ worker for AI turns against REDIS_URL")
    w.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    w.set_defaults(func=_worker)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

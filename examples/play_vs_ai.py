#!/usr/bin/env python3
"""Play Pantheon against the server's AI from the command line, with nothing but the HTTP API and
the standard library: no rules code on this side, only the server's choices.

    python examples/play_vs_ai.py                      # you against one greedy AI, on localhost:8000
    python examples/play_vs_ai.py --ai strong --ai random --url http://host:8000
    python examples/play_vs_ai.py --auto               # let random choices play your seat

What a client should do, shown here:
- send an Idempotency-Key with every request that changes something (the new game, each command):
  after a 503 (`store_unavailable`, `outcome_unknown`, `not_replicated`), a timeout or a dropped
  connection it sends the same request with the same key again, and gets the first answer: nothing
  is lost or doubled;
- follow the choices (GET /games/{id}/options, then ?after=<next>) down to a complete command;
- wait for the other seats by asking again (or follow /games/{id}/stream).
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class Server:
    """Requests to the API, retried with the same Idempotency-Key while the server cannot answer."""

    def __init__(self, url: str, patience_s: float = 120.0) -> None:
        self.url, self.patience_s, self.retries = url.rstrip("/"), patience_s, 0

    def call(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        *,
        token: str | None = None,
        key: str | None = None,
        params: dict | None = None,
    ) -> dict:
        if params:
            path += "?" + urllib.parse.urlencode(params)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        deadline = time.monotonic() + self.patience_s
        while True:
            request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return json.loads(answer.read() or b"null")
            except urllib.error.HTTPError as error:
                problem = json.loads(error.read() or b"{}")
                if error.code != 503 and error.code != 429:
                    raise SystemExit(
                        f"{method} {path}: {error.code} {problem.get('code')}: {problem.get('detail')}"
                    ) from None
                wait = float(error.headers.get("Retry-After", "1"))
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                wait = 1.0  # the server is away or restarting: the same request, the same key, again
            if time.monotonic() > deadline:
                raise SystemExit(f"{method} {path}: the server did not answer for {self.patience_s:.0f} s")
            self.retries += 1
            time.sleep(wait)


def new_key() -> str:
    """A fresh Idempotency-Key: random, so that it is also good for requests whose answers hold secrets."""
    return secrets.token_urlsafe(18)


def pick(answer: dict, auto: random.Random | None) -> dict:
    """One of the choices: typed by the player, or drawn at random with --auto."""
    if auto is not None:
        return auto.choice(answer["choices"])
    print(f"\n{answer['prompt']}")
    for number, choice in enumerate(answer["choices"], start=1):
        print(f"  {number:2}. {choice['label']}")
    while True:
        typed = input("your choice: ").strip()
        if typed.isdigit() and 1 <= int(typed) <= len(answer["choices"]):
            return answer["choices"][int(typed) - 1]


def play(server: Server, levels: list[str], auto: random.Random | None, poll_s: float = 0.3) -> dict:
    """Create a game against the AI, play your seat to the end; the final game detail."""
    seats = [{"type": "human", "holder": "creator"}] + [{"type": "ai", "level": level} for level in levels]
    created = server.call("POST", "/games", {"seats": seats}, key=new_key())
    game, token = created["game"], created["seats"][0]["token"]
    print(f"game {game}: you are seat 0")
    while True:
        detail = server.call("GET", f"/games/{game}")
        if detail["finished"]:
            return detail
        if detail["awaiting"]["seat"] != 0:
            time.sleep(poll_s)  # an AI is thinking
            continue
        answer = server.call("GET", f"/games/{game}/options", token=token)
        choice = pick(answer, auto)
        while choice["command"] is None:  # follow the choice to its complete command
            answer = server.call("GET", f"/games/{game}/options", token=token, params={"after": choice["next"]})
            choice = pick(answer, auto)
        done = server.call("POST", f"/games/{game}/commands", choice["command"], token=token, key=new_key())
        if auto is None:
            print(f"played: {choice['label']} (now version {done['version']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server (default: %(default)s)")
    parser.add_argument(
        "--ai",
        action="append",
        choices=("random", "greedy", "strong"),
        help="an AI opponent of this level (repeat for more; default: one greedy)",
    )
    parser.add_argument("--auto", action="store_true", help="random choices play your seat")
    parser.add_argument("--seed", type=int, default=None, help="the random choices' seed (with --auto)")
    args = parser.parse_args(argv)
    server = Server(args.url)
    detail = play(server, args.ai or ["greedy"], random.Random(args.seed) if args.auto else None)
    scores = detail["outcome"]["scores"]
    print(f"game over: scores {scores}, winners {detail['outcome']['winners']} (you are seat 0)")
    print(
        json.dumps(
            {
                "game": detail["game"],
                "scores": scores,
                "winners": detail["outcome"]["winners"],
                "retries": server.retries,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

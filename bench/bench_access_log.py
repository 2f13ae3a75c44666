"""Access log benchmark (not a test): the CPU time per answer of the request id and access log hook
(`service.http.requestid.stamp`) with the API's logging (`service.http.server.log_config`), its line
written to stdout (send stdout to /dev/null or a file), and the same with the access logger off, so
the difference is the line's cost alone.

    .venv/bin/python -m bench.bench_access_log [--answers 50000] [--rounds 5] > /dev/null
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import logging.config
import statistics
import sys
import time

from service.http import requestid
from service.http.server import log_config

SCOPE = {
    "type": "http",
    "client": ("127.0.0.1", 50000),
    "method": "POST",
    "path": "/games/0123456789abcdef/commands",
    "raw_path": b"/games/0123456789abcdef/commands",
    "query_string": b"",
    "headers": [(b"host", b"127.0.0.1:8000"), (b"authorization", b"Bearer t"), (b"content-type", b"application/json")],
}


def _answer() -> None:
    message = {"type": "http.response.start", "status": 201, "headers": [(b"content-length", b"120")]}
    coroutine = requestid.stamp(message, {**SCOPE, "state": {}})  # type: ignore[arg-type]
    with contextlib.suppress(StopIteration):  # it awaits nothing: one step runs it to the end
        coroutine.send(None)


def per_answer_us(answers: int) -> float:
    start = time.process_time()
    for _ in range(answers):
        _answer()
    return (time.process_time() - start) / answers * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=50000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    logging.config.dictConfig(log_config())
    access = logging.getLogger("pantheon.access")
    logged, silent = [], []
    for _ in range(args.rounds):  # alternate, so that drift in the machine's speed hits both alike
        access.disabled = False
        logged.append(per_answer_us(args.answers))
        access.disabled = True
        silent.append(per_answer_us(args.answers))
    result = {
        "stamp_with_line_us": round(statistics.median(logged), 2),
        "stamp_without_line_us": round(statistics.median(silent), 2),
        "line_us": round(statistics.median(logged) - statistics.median(silent), 2),
        "rounds": args.rounds,
    }
    print(json.dumps(result), file=sys.stderr)


if __name__ == "__main__":
    main()

"""Protocol benchmark (not a test): the CPU time per request of uvicorn's own protocols (h11, which
the server ran on before issue 26, and httptools) and of ours (service/http/server.py: httptools with
the request deadline, the head size check and the connection cap), on uvloop, with kept-alive
command-sized requests fed to one connection through a fake transport and a trivial ASGI app: no
network, no Redis, no other process, so the differences are the parsers' and the guard's costs alone
(the API benchmark's ratios on 2 shared cores are far noisier than a few microseconds).

    .venv/bin/python -m bench.bench_protocol [--requests 20000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import uvloop
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from service.config import Settings
from service.http.server import guarded_protocol

BODY = b'{"type": "draw_card", "slot": null}'
REQUEST = (
    b"POST /games/g/commands HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept: */*\r\n"
    b"Authorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: "
    + str(len(BODY)).encode()
    + b"\r\n\r\n"
    + BODY
)


async def _app(scope, receive, send) -> None:
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"{}"})


class _Transport(asyncio.Transport):
    """Takes what the protocol writes and forgets it."""

    def __init__(self) -> None:
        super().__init__()
        self.closing = False

    def get_extra_info(self, name, default=None):
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name, default)

    def write(self, data) -> None:
        pass

    def close(self) -> None:
        self.closing = True

    def is_closing(self) -> bool:
        return self.closing

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def per_request_us(protocol_class: type[asyncio.Protocol], requests: int) -> float:
    config = Config(app=_app, log_level="warning", access_log=False, lifespan="off")
    config.load()
    protocol = protocol_class(config=config, server_state=ServerState(), app_state={})
    protocol.connection_made(_Transport())
    start = time.process_time()
    for _ in range(requests):
        protocol.data_received(REQUEST)
        while protocol.cycle is not None and not protocol.cycle.response_complete:
            await asyncio.sleep(0)
        await asyncio.sleep(0)
    return (time.process_time() - start) / requests * 1e6


async def _main(requests: int, rounds: int) -> dict:
    protocols = {
        "uvicorn_h11": H11Protocol,
        "uvicorn_httptools": HttpToolsProtocol,
        "guarded": guarded_protocol(Settings()),
    }
    times: dict[str, list[float]] = {name: [] for name in protocols}
    for _ in range(rounds):  # alternate, so that drift in the machine's speed hits all alike
        for name, protocol in protocols.items():
            times[name].append(await per_request_us(protocol, requests))
    median = {name: statistics.median(t) for name, t in times.items()}
    return {
        **{f"{name}_us_per_request": round(m, 2) for name, m in median.items()},
        "guard_us_per_request": round(median["guarded"] - median["uvicorn_httptools"], 2),
        "rounds": rounds,
        "requests": requests,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print(json.dumps(uvloop.run(_main(args.requests, args.rounds))))


if __name__ == "__main__":
    main()

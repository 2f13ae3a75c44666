"""The HTTP API (Litestar): the app, one controller module per resource (games, play, audit),
auth, request and response bodies, problem details, the OpenAPI document, metrics, the event
stream (`sse`: Server-Sent Events from the process's fan-out); and the server that runs it
(uvicorn, with limits on slow and idle clients: `server`).
Imports any package below it; only `service.cli` imports it."""

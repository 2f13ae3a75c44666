"""The imperative shell: CLI, HTTP API, Redis store and workers around the pure domain."""

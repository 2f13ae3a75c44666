"""The write path: commands in, events out. Create games, claim and hand over seats, decide a
command on a game's current state and append its events (one `submit` for people and AI), and
read a game's state and events. Imports `service.store` and the game registry."""

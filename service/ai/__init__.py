"""AI opponents on the server: the scheduler that enqueues AI turns on RQ and the sweeper that
re-enqueues lost ones, the worker job that plays a turn through the write path, and the bot
ladder. Imports `service.write` and `service.store`."""

# Jobs enqueued before the regroup name `service.ai.play_ai_turn`; RQ resolves that here.
from .worker import play_ai_turn

__all__ = ["play_ai_turn"]

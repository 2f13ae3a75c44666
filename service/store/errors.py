"""What Redis raises, as the rest of the service catches it: through the store's door, so that
nothing outside `service/store` imports redis (tests/test_redis_door.py)."""

from redis.exceptions import (
    BusyLoadingError,
    ConnectionError,
    MaxConnectionsError,
    RedisError,
    ResponseError,
)

__all__ = ["BusyLoadingError", "ConnectionError", "MaxConnectionsError", "RedisError", "ResponseError"]

"""The write path: commands in, events out. `submit` decides a seat's command on the game's current
state and appends its events (one path for people and AI); `create`, `seats` make games and say who
plays them; `reads` gives a game's state and events; `folds` caches states per process; `meta` is a
game's metadata. `GameService` ties them to one event store. Imports `service.store` and the game
registry `domain.games`."""

from .create import Created
from .errors import ServiceError
from .meta import SeatSpec, check_levels
from .service import GameService
from .submit import Submitted

__all__ = ["Created", "GameService", "SeatSpec", "ServiceError", "Submitted", "check_levels"]

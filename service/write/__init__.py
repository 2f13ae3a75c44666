"""The write path: commands in, events out. `submit` decides a seat's command on the game's current
state and appends its events (one path for people and AI); `create`, `seats` make games and say who
plays them; `reads` gives a game's state and events; `folds` caches states per process; `meta` is a
game's metadata. Each function takes the `Games` (service.py) it works on: one event store, its
folds and metadata; `GameService` (facade.py) gives them as methods to the layers above, and
nothing here imports it. Imports `service.store` and the game registry `domain.games`."""

from service.errors import ServiceError

from .create import Created
from .facade import GameService
from .meta import SeatSpec, check_levels
from .submit import Submitted

__all__ = ["Created", "GameService", "SeatSpec", "ServiceError", "Submitted", "check_levels"]

"""`python -m service.cli ROLE`: how `pantheon serve` starts its helper processes."""

import sys

from .commands import main

sys.exit(main())

"""Pure game domains: a game-agnostic kernel and one package per game."""

"""Read models: the projector that folds the feed into views, the read-model store in Redis
(versioned writes, reads at version >= N, replay), and rebuilds. Imports `service.store` only."""

"""Read models: the projector that folds the feed into views, the read-model store in Redis
(versioned writes, reads at version >= N, replay), rebuilds, and how far behind the projections
are (`lag`, for the metrics). Imports `service.store` only."""

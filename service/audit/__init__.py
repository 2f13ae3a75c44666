"""Trust in recorded games: the audit (seed, hash chain, every command decided again, AI views,
scores), exports and their files, imports as read-only archives, forks and their lineage, and
the archive of games moved out of Redis (its files, and the archiver that moves them).
Imports `service.write`, `service.store` and `service.config`."""

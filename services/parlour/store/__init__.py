"""Match state in Redis: keys, the atomic Lua commit, event streams, and an embedded server."""

from parlour.store.matchstore import CommitConflict, MatchNotFound, MatchStore, StoredState

__all__ = ["CommitConflict", "MatchNotFound", "MatchStore", "StoredState"]

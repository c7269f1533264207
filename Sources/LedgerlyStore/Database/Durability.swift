/// How hard each commit is pushed to disk (SQLite `synchronous` in WAL mode).
public enum Durability: String, Sendable, CaseIterable {
    /// fsync on every commit: an acknowledged write survives a power loss. The default.
    case full
    /// fsync at checkpoints only: survives a crash or `kill -9` of the store, not a power loss.
    case normal
}

import CMallocConfiguration

/// How many malloc arenas the store's process may use, set first thing by `ledgerly-store`
/// (D375).
///
/// Why: glibc gives threads that allocate at the same time arenas of their own, up to eight per
/// core, and an arena keeps what is freed in it for the next allocation there. The store's
/// decoding, applying and checkpointing threads, its socket threads and the dispatch pool's
/// threads each take turns with batches of megabytes, so which arenas end up holding freed
/// batches changed from run to run: a million-transaction load peaked at 84 to 102 MB of resident
/// memory with the same binary. With two arenas, one per core, the same load peaked at 65 MB, no
/// slower (`MALLOC_ARENA_MAX=2`, the same setting from the environment, in the benchmark).
public enum MallocArenaSettings {
    public static let arenas: Int32 = 2

    /// False when glibc refused the setting (it is then left as it was).
    @discardableResult
    public static func apply() -> Bool {
        ledgerly_malloc_arena_max(arenas) == 1
    }
}

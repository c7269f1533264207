import CMallocConfiguration

/// How many malloc arenas the store's process may use, set first thing by `ledgerly-store`
/// (D375, D378).
///
/// Why a limit: glibc gives threads that allocate at the same time arenas of their own, up to
/// eight per core, and an arena keeps what is freed in it for the next allocation there. The
/// store's decoding, applying and checkpointing threads, its socket threads and the dispatch
/// pool's threads each take turns with batches of megabytes, so which arenas end up holding freed
/// batches changed from run to run: a million-transaction load peaked at 84 to 102 MB of resident
/// memory with the default.
///
/// Why four and not two: the main thread idles in the main arena, so with two every other
/// thread shared the second one or the idle main one, by the order they first allocated. When
/// the decoding and applying threads landed on the same arena, each waited on the other's lock at
/// every allocation SQLite and Swift make (489,103 futex calls in a 400,000-transaction load
/// against 576 to 12,578 otherwise, 9 % of the applying thread in a profile, the load 12–20 %
/// slower), in two runs of fourteen. With four, none of eleven runs had it, and the store
/// peaked at 68–70 MB at a million instead of 64–66.
public enum MallocArenaSettings {
    public static let arenas: Int32 = 4

    /// False when glibc refused the setting (it is then left as it was).
    @discardableResult
    public static func apply() -> Bool {
        ledgerly_malloc_arena_max(arenas) == 1
    }
}

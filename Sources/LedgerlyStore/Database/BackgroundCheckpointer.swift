import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log back into the database file on a thread and a connection of its
/// own, so that the writer never does it inside a commit (D374).
///
/// Why: SQLite's automatic checkpoint runs in the commit that takes the log past 1,000 pages,
/// on the writing connection, so a load's applying thread spent about 5 % of its time copying
/// pages and syncing the database file, with the second core partly idle. Here the writer's
/// commit only notes the log's size (`sqlite3_wal_hook`, which replaces the automatic
/// checkpoint) and, past the same 1,000 pages, asks this thread for a passive checkpoint: one
/// that copies what no reader still needs, never waits for a lock and never blocks the writer.
///
/// A checkpoint on another connection never catches up with a writer that keeps committing, and
/// SQLite restarts the log from its start only once a checkpoint has copied all of it, so under a
/// long load the log would grow without end. When it reaches `limitPages` the writer therefore
/// checkpoints itself right after its commit, as SQLite's automatic checkpoint does, copying
/// only the frames written since the last background checkpoint; its next write then restarts
/// the log.
///
/// Only the running store starts one (`StoreService`); a `StoreDatabase` opened anywhere else
/// keeps SQLite's automatic checkpoint.
final class BackgroundCheckpointer: Sendable {
    /// SQLite's own threshold for its automatic checkpoint, in pages: a background checkpoint
    /// is asked for from this size of the log on.
    static let thresholdPages: Int32 = 1_000
    /// From this size of the log on (32 MiB of 4 KiB pages) the writer checkpoints itself.
    static let limitPages: Int32 = 8_000

    private struct State {
        var requested = false
        var stopped = false
        /// The log's size when a checkpoint was last asked for.
        var requestedAt: Int32 = 0
    }

    /// What the writer, the thread and `stop` share; the thread holds it, not the checkpointer,
    /// so that the checkpointer can go away (and stop it) while the thread waits.
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// Signalled once per checkpoint asked for, and once more to stop.
        let wake = DispatchSemaphore(value: 0)
        /// Signalled by the thread as it ends.
        let ended = DispatchSemaphore(value: 0)
        /// Held while a checkpoint runs: SQLite refuses a second one at the same time (busy,
        /// without waiting), so the writer's own, past the limit, waits here for the thread's
        /// to end instead of being refused for as long as it runs.
        let checkpointing = Mutex(())
    }

    private let pool: DatabasePool
    private let shared = Shared()

    /// Opens the checkpointing connection and takes over the writer's checkpoints.
    init(database: StoreDatabase, durability: Durability) throws {
        pool = database.pool
        let connection = try CheckpointConnection(path: database.pool.path, durability: durability)
        // A thread of its own rather than a dispatch queue, whose blocks would take turns on
        // the pool's threads with the decoding and applying work (and their malloc arenas: D375).
        let thread = Thread { [shared] in
            while true {
                shared.wake.wait()
                guard !shared.state.withLock({ state in
                    state.requested = false
                    return state.stopped
                }) else { break }
                shared.checkpointing.withLock { _ in connection.checkpointPassive() }
            }
            shared.ended.signal()
        }
        thread.name = "ledgerly-store.checkpoint"
        thread.start()
        let context = Unmanaged.passUnretained(self).toOpaque()
        pool.writeWithoutTransaction { db in
            _ = sqlite3_wal_hook(db.sqliteConnection, { context, writer, _, pages in
                if let context { Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue().logHas(pages, writer: writer) }
                return SQLITE_OK
            }, context)
        }
    }

    /// Called by the writer after each commit with the log's size in pages.
    private func logHas(_ pages: Int32, writer: OpaquePointer?) {
        guard pages >= Self.thresholdPages else { return }
        if pages >= Self.limitPages {
            shared.checkpointing.withLock { _ in _ = sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
            return
        }
        // One checkpoint per `thresholdPages` written, as SQLite's own: a page rewritten by
        // several commits in between is then copied once, not once per commit.
        let start = shared.state.withLock { state -> Bool in
            let grown = pages < state.requestedAt ? pages : pages - state.requestedAt
            guard !state.requested, !state.stopped, grown >= Self.thresholdPages else { return false }
            state.requested = true
            state.requestedAt = pages
            return true
        }
        if start { shared.wake.signal() }
    }

    /// Gives the checkpoints back to the writer's automatic one and waits for the one running,
    /// if any, and for the thread to end, which closes its connection. Call before the store
    /// folds its log.
    func stop() {
        let running = shared.state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard running else { return }
        pool.writeWithoutTransaction { db in
            _ = sqlite3_wal_hook(db.sqliteConnection, nil, nil)
            _ = sqlite3_wal_autocheckpoint(db.sqliteConnection, Self.thresholdPages)
        }
        shared.wake.signal()
        shared.ended.wait()
    }

    deinit {
        // The hook's context is this object: the writer must not call it once it is gone.
        stop()
    }
}

/// The checkpointer's own connection to the database file, used only on its thread.
private final class CheckpointConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    init(path: String, durability: Durability) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            if let opened { sqlite3_close_v2(opened) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot open \(path) for checkpoints")
        }
        handle = opened
        // The same syncing as the writer: the log is synced before a checkpoint copies it and
        // the database file after, so a crash mid-checkpoint loses nothing either way.
        sqlite3_exec(handle, "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")", nil, nil, nil)
    }

    /// Copies what it can without waiting; what readers still need stays for the next one.
    func checkpointPassive() {
        sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    deinit {
        sqlite3_close_v2(handle)
    }
}

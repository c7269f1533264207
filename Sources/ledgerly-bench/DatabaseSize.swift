import Foundation
import LedgerlyRuntime

/// The database's size on disk: the SQLite file with its write-ahead log and shared memory.
struct DatabaseSize {
    let megabytes: Double

    init(home: LedgerlyHome) {
        let name = home.databaseURL.lastPathComponent
        let bytes = ["", "-wal", "-shm"].compactMap { suffix in
            try? home.databaseURL.deletingLastPathComponent().appendingPathComponent(name + suffix).resourceValues(forKeys: [.fileSizeKey]).fileSize
        }.reduce(0, +)
        megabytes = Double(bytes) / 1_048_576
    }
}

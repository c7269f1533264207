import Foundation
import GRDB

/// Consistent copies of the database with SQLite's online backup API, taken while the store
/// serves: the copy is the state of one moment (a read snapshot in WAL mode), checked with
/// `PRAGMA integrity_check`, written under a temporary name, flushed and renamed into place, so
/// a copy that exists is whole.
enum StoreBackup {
    struct Copy {
        let url: URL
        let bytes: Int64
        let lastSeq: Int64
        let epoch: String
    }

    enum Failure: Error, CustomStringConvertible {
        case exists(String)
        case notAbsolute(String)
        case integrity(String, String)

        var description: String {
            switch self {
            case .exists(let path): "\(path) already exists; choose another name (a backup never overwrites a file)"
            case .notAbsolute(let path): "'\(path)' is not an absolute path"
            case .integrity(let path, let result): "the copy at \(path) failed its integrity check (\(result)); it was removed"
            }
        }
    }

    /// `<folder of the database>/backups`.
    static func folder(beside database: URL) -> URL {
        database.deletingLastPathComponent().appendingPathComponent("backups", isDirectory: true)
    }

    /// Copies into `folder` as `ledgerly-<name>-<time>.sqlite`; returns the copy's URL.
    static func copy(_ source: some DatabaseReader, to folder: URL, named name: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        return try write(source, to: folder.appendingPathComponent("ledgerly-\(name)-\(stamp).sqlite")).url
    }

    /// Writes a consistent copy of `source` at `destination`, which must not exist yet.
    static func write(_ source: some DatabaseReader, to destination: URL) throws -> Copy {
        guard destination.path.hasPrefix("/") else { throw Failure.notAbsolute(destination.path) }
        guard !FileManager.default.fileExists(atPath: destination.path) else { throw Failure.exists(destination.path) }
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).partial")
        try? FileManager.default.removeItem(at: temporary)
        do {
            let copy = try DatabaseQueue(path: temporary.path)
            try source.backup(to: copy)
            let (check, lastSeq, epoch) = try copy.writeWithoutTransaction { db in
                // A self-contained file: no -wal beside it once closed.
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                return (try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer",
                        try ChangeLogRow.lastSeq(db),
                        try MetaRow.epoch(db) ?? "unknown")
            }
            try copy.close()
            guard check == "ok" else { throw Failure.integrity(destination.path, check) }
            let handle = try FileHandle(forUpdating: temporary)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
            let bytes = (try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value ?? 0
            return Copy(url: destination, bytes: bytes, lastSeq: lastSeq, epoch: epoch)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}

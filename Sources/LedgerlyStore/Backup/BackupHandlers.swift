import Foundation
import GRDB
import LedgerlyProtocol

/// `ledger.backup`: a consistent copy of the database, taken while the store serves.
enum BackupHandlers {
    /// NAME_MAX (255) less what the temporary name adds: a dot, and `.<pid>.partial` with a pid
    /// of up to 7 digits (Linux's largest, 4194304).
    static let maximumNameBytes = 238
    /// PATH_MAX (4096) less the terminating NUL and the temporary name's 17 bytes.
    static let maximumPathBytes = 4_078

    static func backup(_ request: LedgerBackupRequest, _ pool: DatabasePool) throws -> LedgerBackupReply {
        let destination = URL(fileURLWithPath: request.path)
        guard request.path.hasPrefix("/") else {
            throw LedgerError.invalid("body.path must be an absolute path, got '\(request.path)'", field: .body("path"))
        }
        // The copy is written beside the file first, as `.<name>.<pid>.partial` (StoreBackup), and
        // a name longer than the file system takes made SQLite fail with "unable to open" (`internal`).
        let name = destination.lastPathComponent
        guard name.utf8.count <= maximumNameBytes else {
            throw LedgerError.invalid("the file name in body.path is \(name.utf8.count) bytes long; a backup's file name is at most \(maximumNameBytes) bytes", field: .body("path"))
        }
        guard request.path.utf8.count <= maximumPathBytes else {
            throw LedgerError.invalid("body.path is \(request.path.utf8.count) bytes long; at most \(maximumPathBytes)", field: .body("path"))
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination.deletingLastPathComponent().path, isDirectory: &isFolder), isFolder.boolValue else {
            throw LedgerError.invalid("the folder of \(request.path) does not exist", field: .body("path"))
        }
        guard !FileManager.default.fileExists(atPath: request.path) else {
            throw LedgerError.conflict("\(request.path) already exists; a backup never overwrites a file", field: .body("path"))
        }
        do {
            let copy = try StoreBackup.write(pool, to: destination)
            return LedgerBackupReply(path: copy.url.path, bytes: copy.bytes, lastSeq: copy.lastSeq, epoch: copy.epoch, integrity: "ok")
        } catch let failure as StoreBackup.Failure {
            throw LedgerError.broken(failure.description, field: .body("path"))
        } catch let error as CocoaError {
            throw LedgerError.invalid("cannot write \(request.path): \(error.localizedDescription)", field: .body("path"))
        }
    }
}

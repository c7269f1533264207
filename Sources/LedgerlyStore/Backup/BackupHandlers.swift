import Foundation
import GRDB
import LedgerlyProtocol

/// `ledger.backup`: a consistent copy of the database, taken while the store serves.
enum BackupHandlers {
    static func backup(_ request: LedgerBackupRequest, _ pool: DatabasePool) throws -> LedgerBackupReply {
        let destination = URL(fileURLWithPath: request.path)
        guard request.path.hasPrefix("/") else {
            throw LedgerError.invalid("body.path must be an absolute path, got '\(request.path)'", field: .body("path"))
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

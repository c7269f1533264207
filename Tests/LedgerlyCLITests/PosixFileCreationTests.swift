import Foundation
import Glibc
@testable import LedgerlyFiles
import Testing

/// `PosixFile.creatingNew` leaves nothing behind when it fails after creating the file (D474).
@Suite struct PosixFileCreationTests {
    @Test func aFileWhoseModeCannotBeSetIsRemovedBeforeTheErrorIsThrown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("posix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.partial").path
        do {
            _ = try PosixFile.creatingNew(path, permissions: 0o600, changingModeWith: { _, _ in
                errno = EPERM
                return -1
            })
            Issue.record("created although its mode could not be set")
        } catch {
            #expect(error.operation == "chmod" && error.code == EPERM)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

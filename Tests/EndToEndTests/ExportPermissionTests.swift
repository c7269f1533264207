import Foundation
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 45, item 15: every file the CLI writes with ledger data in it is 0600 whatever the
    /// umask, as a backup is (D421): the real binary, run under umask 022.
    @Suite struct ExportPermissionTests {
        /// `ledgerly ARGUMENTS` through `/bin/sh` with `umask 022`, as a login shell has it.
        static func underUmask022(_ harness: ServiceHarness, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"umask 022 && exec "$0" "$@""#, ServiceHarness.binaryDirectory.appendingPathComponent("ledgerly").path] + arguments
            process.currentDirectoryURL = harness.home.root
            var environment = ProcessInfo.processInfo.environment
            environment["LEDGERLY_HOME"] = harness.home.root.path
            environment["NO_COLOR"] = "1"
            process.environment = environment
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
        }

        static func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }

        @Test func everyExportIsWrittenOwnerOnlyUnderUmask022() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Cash", "--currency", "EUR").status == 0)
            #expect(try harness.cli("tx", "add", "--wallet", "Cash", "--amount", "12.50", "--notes", "private").status == 0)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerly-0600-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            defer { try? FileManager.default.removeItem(at: folder) }

            // The control: under umask 022 a file the shell makes is 0644.
            let control = folder.appendingPathComponent("control").path
            let made = Process()
            made.executableURL = URL(fileURLWithPath: "/bin/sh")
            made.arguments = ["-c", "umask 022 && : > \"$0\"", control]
            try made.run()
            made.waitUntilExit()
            #expect(try Self.mode(control) == 0o644)

            for format in ["json", "csv", "journal", "beancount"] {
                let path = folder.appendingPathComponent("ledger.\(format)").path
                let written = try Self.underUmask022(harness, ["export", format, "-o", path])
                #expect(written.status == 0, "\(format): \(written.stderr)")
                let mode = try Self.mode(path)
                #expect(mode == 0o600, "\(format): \(String(mode, radix: 8))")
                #expect(try String(contentsOfFile: path, encoding: .utf8).contains(format == "beancount" || format == "journal" ? "12.50" : "private"), "\(format)")
            }
            // A backup, written by the store (its own umask, 077), whatever the CLI's.
            let backup = folder.appendingPathComponent("ledger.sqlite").path
            let backedUp = try Self.underUmask022(harness, ["backup", backup])
            #expect(backedUp.status == 0, "\(backedUp.stderr)")
            #expect(try Self.mode(backup) == 0o600)
            // An existing file readable by all is replaced by an owner-only one (rename(2)).
            let existing = folder.appendingPathComponent("old.csv").path
            #expect(FileManager.default.createFile(atPath: existing, contents: Data("old\n".utf8), attributes: [.posixPermissions: 0o644]))
            #expect(try Self.underUmask022(harness, ["export", "csv", "-o", existing]).status == 0)
            #expect(try Self.mode(existing) == 0o600)
            // Nothing is left under a temporary name.
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".partial") }
            #expect(left.isEmpty, "\(left)")
        }
    }
}

import Foundation
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// An export file is on the disk before it takes its name (D474): the real CLI, watched with
    /// strace, syncs the temporary file before renaming it over the destination, and the folder
    /// after. Runs where strace is installed (the development machine has it).
    @Suite struct ExportDurabilityTests {
        static let strace = "/usr/bin/strace"

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: strace)))
        func theExportIsSyncedBeforeItIsRenamedIntoPlace() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let destination = harness.home.root.appendingPathComponent("ledger.json")
            let log = harness.home.root.appendingPathComponent("strace.log")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.strace)
            process.arguments = ["-f", "-qq", "-e", "trace=fsync,rename,renameat,renameat2", "-o", log.path,
                                 ServiceHarness.binaryDirectory.appendingPathComponent("ledgerly").path, "export", "json", "-o", destination.path]
            var environment = ProcessInfo.processInfo.environment
            environment["LEDGERLY_HOME"] = harness.home.root.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(FileManager.default.fileExists(atPath: destination.path))
            let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let rename = try #require(calls.firstIndex { $0.contains("rename") && $0.contains(".partial") })
            #expect(calls[..<rename].contains { $0.contains("fsync(") && $0.contains("= 0") }, "\(calls)")
            #expect(calls[rename...].contains { $0.contains("fsync(") }, "\(calls)")
        }
    }
}

import Foundation
import LedgerlyTesting

/// Runs the peers' own checks on an exported file: what a user of hledger, ledger or beancount
/// would run before trusting it.
enum PeerToolChecks {
    struct Run {
        let tool: String
        let status: Int32
        let stdout: String
        let stderr: String
        var passed: Bool { status == 0 && stderr.isEmpty }
        var failure: String { "\(tool): exit \(status)\n\(stderr)\(stdout)" }
    }

    /// Runs `tool` under a UTF-8 locale (hledger refuses non-ASCII text otherwise), output to
    /// files so a long report cannot fill a pipe.
    static func run(_ tool: String, _ arguments: [String]) throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerly-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out"), err = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "LEDGER_FILE")
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Run(tool: ([tool] + arguments).joined(separator: " "), status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// `hledger check ordereddates`, `hledger --strict` and `ledger --pedantic` on a journal:
    /// the failures, none when it passes all three.
    static func journalFailures(_ journal: String) throws -> [String] {
        let runs = [
            try run("/usr/bin/hledger", ["-f", journal, "check", "ordereddates"]),
            try run("/usr/bin/hledger", ["-f", journal, "--strict", "bal"]),
            try run("/usr/bin/ledger", ["-f", journal, "--pedantic", "bal"]),
        ]
        return runs.filter { !$0.passed }.map(\.failure)
    }

    /// `bean-check` on a beancount file: the failure, nil when it passes (no output at all).
    static func beancountFailure(_ file: String) throws -> String? {
        let run = try run("/usr/bin/bean-check", [file])
        return run.passed && run.stdout.isEmpty ? nil : run.failure
    }

    /// "<account> <commodity>" → decimal text, from a `bean-query` whose rows are an account and
    /// an inventory ("12.50 EUR, 3 USD").
    static func beancountTotals(_ file: String, _ query: String) throws -> [String: String] {
        let run = try run("/usr/bin/bean-query", ["-f", "csv", file, query])
        guard run.status == 0 else { throw HarnessError.commandFailed("bean-query \(query)", run.failure) }
        var totals: [String: String] = [:]
        // bean-query ends its CSV lines with CRLF.
        for line in run.stdout.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).dropFirst() {
            guard let comma = line.firstIndex(of: ",") else { continue }
            let account = line[..<comma].trimmingCharacters(in: .whitespaces)
            for position in line[line.index(after: comma)...].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).split(separator: ",") {
                let parts = position.split(separator: " ")
                if parts.count == 2 { totals["\(account) \(parts[1])"] = String(parts[0]) }
            }
        }
        return totals
    }
}

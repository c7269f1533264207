import Foundation

/// Runs the peers (hledger, ledger, beancount) on an exported file, as a user of those tools
/// would before trusting it: for the interchange unit tests and the end-to-end export tests alike.
public enum PeerTool {
    public static let hledger = "/usr/bin/hledger"
    public static let ledger = "/usr/bin/ledger"
    public static let beanCheck = "/usr/bin/bean-check"
    public static let beanQuery = "/usr/bin/bean-query"

    public struct Run: Sendable {
        /// The command line, for messages.
        public let command: String
        public let status: Int32
        public let stdout: String
        public let stderr: String

        /// Exit 0 and not a word on stderr.
        public var passed: Bool { status == 0 && stderr.isEmpty }
        /// What to show when the tool failed.
        public var failure: String { "\(command): exit \(status): \(stderr)\(stdout.isEmpty ? "" : "\n" + stdout)" }
    }

    /// Runs `tool` with `arguments`. Output goes to temporary files rather than pipes, so a tool
    /// writing a lot to both streams cannot block on a full pipe. The locale is forced to UTF-8:
    /// in the C locale hledger refuses any non-ASCII byte in the journal.
    public static func run(_ tool: String, _ arguments: [String]) throws -> Run {
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
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Run(command: ([tool] + arguments).joined(separator: " "), status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// `hledger check ordereddates`, `hledger --strict` and `ledger --pedantic` on a journal:
    /// the failures, none when it passes all three.
    public static func journalFailures(_ journal: String) throws -> [String] {
        let runs = [
            try run(hledger, ["-f", journal, "check", "ordereddates"]),
            try run(hledger, ["-f", journal, "--strict", "bal"]),
            try run(ledger, ["-f", journal, "--pedantic", "bal"]),
        ]
        return runs.filter { !$0.passed }.map(\.failure)
    }

    /// `bean-check` on a beancount file: the failure, nil when it passes (no output at all).
    public static func beancountFailure(_ file: String) throws -> String? {
        let run = try run(beanCheck, [file])
        return run.passed && run.stdout.isEmpty ? nil : run.failure
    }

    /// "<account> <commodity>" → decimal text, from a `bean-query` whose rows are an account and
    /// an inventory ("12.50 EUR, 3 USD").
    public static func beancountTotals(_ file: String, _ query: String) throws -> [String: String] {
        let run = try run(beanQuery, ["-f", "csv", file, query])
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

import Foundation

/// Runs hledger and ledger for the export cross-checks, and reads the CSV they print.
enum ExportTools {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String

        /// What to show when the tool failed.
        var failure: String { "exit \(status): \(stderr)\(stdout.isEmpty ? "" : "\n" + stdout)" }
    }

    static let hledger = "/usr/bin/hledger"
    static let ledger = "/usr/bin/ledger"
    static let beanCheck = "/usr/bin/bean-check"
    static let beanQuery = "/usr/bin/bean-query"

    /// Runs `tool` with `arguments`. Output goes to temporary files rather than pipes, so a tool
    /// writing a lot to both streams cannot block on a full pipe. The locale is forced to UTF-8:
    /// in the C locale hledger refuses any non-ASCII byte in the journal.
    static func run(_ tool: String, _ arguments: [String]) throws -> Run {
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent("ledgerly-export-\(id).out")
        let errURL = directory.appendingPathComponent("ledgerly-export-\(id).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "LEDGER_FILE")
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Writes `text` to a new temporary file and returns its path (the caller removes it).
    static func temporaryFile(_ text: String, suffix: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerly-export-\(UUID().uuidString)\(suffix)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// RFC 4180 records: quoted fields may hold ',', '"' (doubled) and line breaks; CRLF or LF ends a record.
    static func parseCSV(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"": quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\r": continue
            case "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
            default: field.unicodeScalars.append(scalar)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}

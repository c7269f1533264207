import Foundation

/// Files for the export cross-checks, and the CSV the peers print (they are run by `PeerTool`).
enum ExportTools {
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

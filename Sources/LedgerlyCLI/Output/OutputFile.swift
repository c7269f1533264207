import FoundationEssentials
import LedgerlyFiles
import Glibc

/// Where an export goes: a file (written to a temporary name and renamed at the end, so a
/// failed export never leaves half a file under the real name) or standard output.
/// Writes are buffered: a million transactions are a few hundred megabytes of text.
final class OutputFile {
    private let handle: PosixFile
    private let temporary: URL?
    private let destination: URL?
    private var buffer = Data()

    /// `path` nil or "-" is standard output, as for most Unix tools (`-o -`).
    init(path: String?) throws {
        guard let path, path != "-" else {
            handle = PosixFile.standardOutput
            temporary = nil
            destination = nil
            return
        }
        let destination = URL(fileURLWithPath: path)
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).partial")
        do { handle = try PosixFile.writing(temporary.path) } catch {
            throw CLIFailure(message: "cannot write \(path): check that its folder exists and is writable", status: .refused)
        }
        self.temporary = temporary
        self.destination = destination
    }

    var isStandardOutput: Bool { destination == nil }

    func write(_ text: String) throws {
        // Copied in one piece from the string's own UTF-8 (a journal export writes a million
        // entries; appending the bytes as a sequence went one at a time).
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Bytes already encoded (a page of the JSON export).
    func write(bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is left and puts the file in place (rename(2): an existing file is replaced
    /// at once, never missing or half written).
    func finish() throws {
        try flush()
        guard let temporary, let destination else { return }
        try handle.close()
        guard rename(temporary.path, destination.path) == 0 else {
            throw CLIFailure(message: "cannot put the export at \(destination.path): \(String(cString: strerror(errno)))", status: .refused)
        }
    }

    /// Removes the partial file after a failure.
    func abandon() {
        guard let temporary else { return }
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }

    private func flush() throws {
        do {
            try handle.write(buffer)
        } catch {
            throw CLIFailure(message: "cannot write the export: \(error.reason) (disk full?)", status: .failure)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

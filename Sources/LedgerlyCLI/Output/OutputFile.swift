import FoundationEssentials
import LedgerlyFiles
import Glibc

/// Where an export goes: a file (written to a temporary name and renamed at the end, so a
/// failed export never leaves half a file under the real name) or standard output.
/// Writes are buffered: a million transactions are a few hundred megabytes of text.
///
/// The file holds ledger data, so it is written 0600 whatever the umask, as a backup is: the
/// temporary file is created new (`PosixFile.creatingNew`: `O_EXCL | O_NOFOLLOW`, then `fchmod`)
/// under a name with a random part, and renamed over the destination (D421).
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
        (handle, temporary) = try Self.temporaryFile(beside: destination, named: path)
        self.destination = destination
    }

    /// A new file beside `destination`, under a name nobody can guess ahead, so a file or link
    /// planted there is unlikely; one that is there anyway (EEXIST) is left alone and another
    /// name tried.
    private static func temporaryFile(beside destination: URL, named path: String) throws -> (PosixFile, URL) {
        var attempt = 0
        while true {
            let temporary = destination.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16)).partial")
            do {
                return (try PosixFile.creatingNew(temporary.path), temporary)
            } catch where error.code == EEXIST && attempt < 10 {
                attempt += 1
            } catch {
                throw CLIFailure(message: "cannot write \(path): check that its folder exists and is writable (\(error.reason))", status: .refused)
            }
        }
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
    /// at once, never missing or half written). The file is synced before the rename, so after
    /// a power cut the name holds either the old file or the whole new one, never an empty one
    /// (the rename can reach the disk before the data otherwise); the folder after, so the
    /// rename itself lasts (D474).
    func finish() throws {
        try flush()
        guard let temporary, let destination else { return }
        do {
            try handle.synchronize()
        } catch {
            throw CLIFailure(message: "cannot write the export: \(error.reason) (disk full?)", status: .failure)
        }
        try handle.close()
        guard rename(temporary.path, destination.path) == 0 else {
            throw CLIFailure(message: "cannot put the export at \(destination.path): \(String(cString: strerror(errno)))", status: .refused)
        }
        PosixFile.synchronizeDirectory(destination.deletingLastPathComponent().path)
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

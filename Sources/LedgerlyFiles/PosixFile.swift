import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor read and written with the system calls themselves: what the CLI's
/// modules used Foundation's `FileHandle` for (standard streams, export files, the file of an
/// import). `FileHandle` is in the full Foundation, which those modules no longer link (D380).
///
/// Not `Sendable`: one owner at a time, as a descriptor's file offset is shared state.
public final class PosixFile {
    public let descriptor: Int32
    /// The path named in errors ("standard input" for the streams).
    public let name: String
    private let owned: Bool
    private var closed = false

    private init(descriptor: Int32, name: String, owned: Bool) {
        self.descriptor = descriptor
        self.name = name
        self.owned = owned
    }

    deinit { if owned && !closed { Glibc.close(descriptor) } }

    public static var standardInput: PosixFile { PosixFile(descriptor: STDIN_FILENO, name: "standard input", owned: false) }
    public static var standardOutput: PosixFile { PosixFile(descriptor: STDOUT_FILENO, name: "standard output", owned: false) }
    public static var standardError: PosixFile { PosixFile(descriptor: STDERR_FILENO, name: "standard error", owned: false) }

    /// Takes an open `descriptor` that nothing else will use (a pipe's reading end), closing it
    /// with the file; `name` is what errors call it.
    public static func adopting(_ descriptor: Int32, name: String) -> PosixFile {
        PosixFile(descriptor: descriptor, name: name, owned: true)
    }

    /// Opens `path` for reading.
    public static func reading(_ path: String) throws(PosixFileError) -> PosixFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PosixFileError(operation: "open", path: path, code: errno) }
        return PosixFile(descriptor: descriptor, name: path, owned: true)
    }

    /// Creates `path`, which must not exist yet, for writing, readable and writable by its owner
    /// alone whatever the umask: `O_EXCL` (never an existing file, nor one another process put
    /// there first) and `O_NOFOLLOW` (never through a symbolic link planted at the name), then
    /// `fchmod` to `permissions` (the umask can only take bits away, and a umask of 0277 would).
    /// For files that hold ledger data (exports, temporary copies), D421.
    public static func creatingNew(_ path: String, permissions: mode_t = 0o600) throws(PosixFileError) -> PosixFile {
        try creatingNew(path, permissions: permissions, changingModeWith: { fchmod($0, $1) })
    }

    /// `creatingNew` with the mode change given, so a test can make it fail. A file whose mode
    /// could not be set is removed before the error is thrown (D474): it was created by this
    /// call (`O_EXCL`), may have the umask's wider mode, and nobody else will clean it up.
    static func creatingNew(_ path: String, permissions: mode_t, changingModeWith changeMode: (Int32, mode_t) -> Int32) throws(PosixFileError) -> PosixFile {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw PosixFileError(operation: "create", path: path, code: errno) }
        let file = PosixFile(descriptor: descriptor, name: path, owned: true)
        guard changeMode(descriptor, permissions) == 0 else {
            let code = errno
            try? file.close()
            unlink(path)
            throw PosixFileError(operation: "chmod", path: path, code: code)
        }
        return file
    }

    /// Waits until what was written is on the disk (fsync), so a file renamed into place after
    /// it is never found empty or short after a power cut.
    public func synchronize() throws(PosixFileError) {
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw PosixFileError(operation: "fsync", path: name, code: errno)
        }
    }

    /// Makes a rename in `directory` durable (fsync of the directory). Best effort: a file
    /// system that cannot sync a directory has nothing more to offer, and the file itself is
    /// already on the disk.
    public static func synchronizeDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        Glibc.close(descriptor)
    }

    /// Up to `count` bytes; empty at the end of the file.
    public func read(upToCount count: Int) throws(PosixFileError) -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let result = data.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, count - filled) }
            if result < 0 {
                if errno == EINTR { continue }
                throw PosixFileError(operation: "read", path: name, code: errno)
            }
            if result == 0 { break }
            filled += result
        }
        data.count = filled
        return data
    }

    /// Everything up to the end of the file.
    public func readToEnd() throws(PosixFileError) -> Data {
        var all = Data()
        while true {
            let chunk = try read(upToCount: 1 << 20)
            if chunk.isEmpty { return all }
            all.append(chunk)
        }
    }

    /// All of `bytes`, retrying short writes and interruptions.
    public func write(_ bytes: some DataProtocol) throws(PosixFileError) {
        for region in bytes.regions {
            var error: Int32 = 0
            region.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let result = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if result < 0 {
                        if errno == EINTR { continue }
                        error = errno
                        return
                    }
                    offset += result
                }
            }
            if error != 0 { throw PosixFileError(operation: "write", path: name, code: error) }
        }
    }

    /// Closes it now, reporting what `close` reports (a delayed write error on some file systems).
    public func close() throws(PosixFileError) {
        guard owned, !closed else { return }
        closed = true
        if Glibc.close(descriptor) != 0 { throw PosixFileError(operation: "close", path: name, code: errno) }
    }
}

/// A failed system call on a `PosixFile`, worded by the system's own message for its `errno`.
public struct PosixFileError: Error, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let code: Int32

    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// "No such file or directory", "No space left on device", …
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}

import FoundationEssentials
import LedgerlyFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls behind the credential files: private folders, atomic private writes, and reads
/// that check the permissions of the very file they read (`fstat` on the open descriptor, opened
/// without following a symbolic link), so a swap between the check and the read is not possible.
public enum SecureFile {
    public static func makePrivateFolder(_ folder: URL) throws(CredentialsError) {
        let path = folder.path
        do {
            try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: folder.deletingLastPathComponent().path, reason: FileSystemErrorText.reason(error))
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .unwritable(path: path, reason: lastError())
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .unwritable(path: path, reason: lastError()) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .unwritable(path: path, reason: "it is not a folder") }
        guard info.st_uid == geteuid() else { throw .ownedByAnotherUser(path: path, owner: UInt32(info.st_uid)) }
        if info.st_mode & 0o777 != 0o700, chmod(path, 0o700) != 0 {
            throw .unwritable(path: path, reason: lastError())
        }
    }

    /// Writes `data` to a new private temporary file beside `target`, flushes it, renames it over
    /// `target`, and flushes the folder, so the rename itself survives a crash.
    public static func writeAtomically(_ data: Data, to target: URL) throws(CredentialsError) {
        let folder = target.deletingLastPathComponent().path
        let temporary = "\(folder)/.\(target.lastPathComponent).\(UUID().uuidString).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(path: target.path, reason: lastError()) }
        var failure: String?
        if fchmod(fd, 0o600) != 0 { failure = lastError() }
        if failure == nil {
            failure = data.withUnsafeBytes { buffer -> String? in
                var offset = 0
                while offset < buffer.count {
                    let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return lastError()
                    }
                    offset += written
                }
                return nil
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = lastError() }
        close(fd)
        if failure == nil, rename(temporary, target.path) != 0 { failure = lastError() }
        if let failure {
            unlink(temporary)
            throw .unwritable(path: target.path, reason: failure)
        }
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Reads a secret file: refused unless it is a regular file of the reader's own with no
    /// permission for group or others.
    public static func readPrivate(_ path: String) throws(CredentialsError) -> Data {
        try readChecked(path) { info throws(CredentialsError) in
            guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
            guard info.st_uid == geteuid() else { throw .ownedByAnotherUser(path: path, owner: UInt32(info.st_uid)) }
            guard info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: UInt16(info.st_mode & 0o7777)) }
        }
    }

    /// Opens `path` (not following a final symbolic link when `followLinks` is false), lets `check`
    /// judge what `fstat` says of the open file, then reads it to the end (at most `limit` bytes).
    public static func readChecked(_ path: String, followLinks: Bool = false, limit: Int = 1 << 20, check: (stat) throws(CredentialsError) -> Void) throws(CredentialsError) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing(path: path) }
            if errno == ELOOP { throw .notARegularFile(path: path) }
            throw .unreadable(path: path, reason: lastError())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: lastError()) }
        try check(info)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: lastError())
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}

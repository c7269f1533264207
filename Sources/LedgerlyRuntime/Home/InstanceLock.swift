import FoundationEssentials
import LedgerlyCore
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock file taken before binding an ipc endpoint: a second bind to the same path
/// would silently steal the socket from the running instance, so a second instance must fail.
///
/// `flock` locks are released by the kernel when the process dies, `kill -9` included, so a
/// stale lock file never blocks a restart.
///
/// Opened with `O_NOFOLLOW` (D438): the lock is truncated and written, so a symbolic link planted
/// at its path would let whoever planted it make a service (root's, say) overwrite the file it
/// points at. A link there is refused by name; `O_CLOEXEC` keeps the descriptor out of children.
public final class InstanceLock: Sendable {
    public let path: String
    private let descriptor: Int32

    public init(path: String) throws(InstanceLockError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .symbolicLink(path) }
            throw .cannotOpen(path, String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &buffer, 31)
            close(descriptor)
            let holder = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespaceAndNewlines() : "?"
            throw .alreadyRunning(path, holder)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
        self.path = path
        self.descriptor = descriptor
    }

    /// Whether a running instance holds the lock at `path`, asked without taking it for longer
    /// than the question: true when held, false when the file is missing or free (the instance
    /// is gone, even if `kill -9` left its socket file behind), nil when it cannot be opened
    /// (another user's home). The kernel drops a `flock` with its holder, so a free lock is a
    /// dead instance at once, with no timeout to wait out (D616).
    public static func isHeld(path: String) -> Bool? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return errno == ENOENT ? false : nil }
        defer { close(descriptor) }
        // Shared, not exclusive: it fails only against the instance's exclusive lock.
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK ? true : nil
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

public enum InstanceLockError: Error, CustomStringConvertible, Sendable {
    case cannotOpen(String, String)
    case alreadyRunning(String, String)
    case symbolicLink(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open lock file \(path): \(reason)"
        case .alreadyRunning(let path, let pid): "another instance (pid \(pid)) already holds \(path); stop it first"
        case .symbolicLink(let path): "the lock file \(path) is a symbolic link, which Ledgerly does not follow (it would write through it): remove it and start again"
        }
    }
}

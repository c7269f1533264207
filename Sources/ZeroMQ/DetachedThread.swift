#if canImport(Glibc)
import Glibc
#endif

/// Starts a named, detached POSIX thread that runs `body` once: what the socket threads and the
/// CLI's export pipeline used Foundation's `Thread` for. The modules the `ledgerly` CLI links
/// import FoundationEssentials only (D380), and `Thread` is in the full Foundation.
public enum DetachedThread {
    /// `name` is what `ps -L` and `/proc/<pid>/task/*/comm` show, cut to the 15 bytes Linux keeps.
    /// Fails only if the system cannot create a thread at all (`pthread_create`'s EAGAIN), which
    /// the callers cannot recover from either.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, detachedThreadEntry, box)
        precondition(created == 0, "pthread_create failed for thread \(name): error \(created)")
        pthread_detach(thread)
    }
}

/// What `DetachedThread.start` hands its thread.
private final class ThreadBody: Sendable {
    let name: String
    let run: @Sendable () -> Void

    init(name: String, run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }

    /// `pthread_setname_np` needs `_GNU_SOURCE`, which Swift's Glibc module does not define; the
    /// kernel's own file for the calling thread's name takes the same bytes.
    func nameCurrentThread() {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

private func detachedThreadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
    body.nameCurrentThread()
    body.run()
    return nil
}

import Synchronization

/// Whether setup is complete: until it is, the store refuses requests not `allowedBeforeSetup`
/// (PROTOCOL.md §7). Read from the database at start; opened by `setup.complete`.
final class SetupGate: Sendable {
    private let completed: Mutex<Bool>

    init(completed: Bool) { self.completed = Mutex(completed) }

    var isOpen: Bool { completed.withLock { $0 } }

    func open() { completed.withLock { $0 = true } }
}

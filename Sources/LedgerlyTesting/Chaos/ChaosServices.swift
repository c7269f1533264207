import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// The three services of one home, started from their executables, killed with SIGKILL and
/// started again; each service's output goes to `<home>/logs/<service>.log`.
final class ChaosServices: @unchecked Sendable {
    // @unchecked: `processes` is only touched under `lock`; everything else is immutable.

    let home: LedgerlyHome
    private let binaries: URL
    private let context: ZMQContext
    private let lock = NSLock()
    private var processes: [LedgerlyService: Process] = [:]

    init(home: LedgerlyHome, binaries: URL, context: ZMQContext) {
        self.home = home
        self.binaries = binaries
        self.context = context
    }

    /// Starts the service and returns how long it took to answer `status`.
    @discardableResult
    func start(_ service: LedgerlyService) throws -> Duration {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(service.name)
        process.arguments = ["--home", home.root.path]
        let logURL = home.logDirectory.appendingPathComponent("\(service.name).log")
        if !FileManager.default.fileExists(atPath: logURL.path) { _ = FileManager.default.createFile(atPath: logURL.path, contents: nil) }
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        let started = ContinuousClock.now
        try process.run()
        try log.close()
        lock.withLock { processes[service] = process }
        let deadline = started + .seconds(30)
        while ContinuousClock.now < deadline {
            if status(service, timeoutMilliseconds: 50) != nil { return ContinuousClock.now - started }
        }
        throw ChaosError.didNotStart(service.name)
    }

    /// SIGKILL, then waits until the process is gone.
    func kill(_ service: LedgerlyService) {
        guard let process = lock.withLock({ processes.removeValue(forKey: service) }) else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM to every running service, waiting for each to exit.
    func stopAll() {
        let stopping = lock.withLock { () -> [Process] in
            defer { processes.removeAll() }
            return Array(processes.values)
        }
        for process in stopping {
            process.terminate()
            process.waitUntilExit()
        }
    }

    func status(_ service: LedgerlyService, timeoutMilliseconds: Int = 500) -> StatusReply? {
        let client = RequestClient(service, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: timeoutMilliseconds, attempts: 1))
        defer { client.close() }
        return try? client.call(StatusRequest())
    }
}

enum ChaosError: Error, CustomStringConvertible {
    case didNotStart(String)
    case writerFailed(String)
    case notCaughtUp(String)

    var description: String {
        switch self {
        case .didNotStart(let service): "\(service) did not answer within 30 s of its start"
        case .writerFailed(let reason): "a writer gave up: \(reason)"
        case .notCaughtUp(let service): "\(service) did not catch up with the store within 60 s"
        }
    }
}

import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// The three services of one home, started from their executables, killed with SIGKILL and
/// started again; each service's output goes to `<home>/logs/<service>.log`.
final class ChaosServices: @unchecked Sendable {
    // @unchecked: `processes` is only touched under `lock`; everything else is immutable.
    static let services = ["ledgerly-store", "ledgerly-rates", "ledgerly-alerts"]

    let home: LedgerlyHome
    private let binaries: URL
    private let context: ZMQContext
    private let lock = NSLock()
    private var processes: [String: Process] = [:]

    init(home: LedgerlyHome, binaries: URL, context: ZMQContext) {
        self.home = home
        self.binaries = binaries
        self.context = context
    }

    func endpoint(_ service: String) -> String {
        switch service {
        case "ledgerly-rates": home.ratesCommandEndpoint
        case "ledgerly-alerts": home.alertsCommandEndpoint
        default: home.storeCommandEndpoint
        }
    }

    /// Starts the service and returns how long it took to answer `status`.
    @discardableResult
    func start(_ service: String) throws -> Duration {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(service)
        process.arguments = ["--home", home.root.path]
        let logURL = home.logDirectory.appendingPathComponent("\(service).log")
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
        throw ChaosError.didNotStart(service)
    }

    /// SIGKILL, then waits until the process is gone.
    func kill(_ service: String) {
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

    func status(_ service: String, timeoutMilliseconds: Int = 500) -> StatusReply? {
        let client = RequestClient(service: service, endpoint: endpoint(service), context: context, timeoutMilliseconds: timeoutMilliseconds, attempts: 1)
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

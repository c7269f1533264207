import Foundation
import LedgerlyRuntime
import Synchronization

/// `ledgerly alerts --follow` as a child process; the moment each line arrives is kept.
final class FollowerLines: Sendable {
    private let process: Process
    private let arrivals = Mutex<[ContinuousClock.Instant]>([])

    init(home: LedgerlyHome) throws {
        let process = Process()
        process.executableURL = ServiceProcess.folder.appendingPathComponent("ledgerly")
        process.arguments = ["alerts", "--follow", "--home", home.root.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        self.process = process
        try process.run()
        Thread { [self] in
            let handle = pipe.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                let now = ContinuousClock.now
                let lines = data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                arrivals.withLock { $0 += Array(repeating: now, count: lines) }
            }
        }.start()
    }

    var count: Int { arrivals.withLock { $0.count } }

    /// When line number `index` (0-based) arrived, waiting up to `seconds`.
    func waitForLine(after index: Int, seconds: Double) -> ContinuousClock.Instant? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let arrival = arrivals.withLock({ $0.count > index ? $0[index] : nil }) { return arrival }
            usleep(200)
        }
        return nil
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

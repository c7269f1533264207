import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import Synchronization

/// A fresh Ledgerly home in the temporary folder (short, for the ipc path limit).
func temporaryHome() throws -> LedgerlyHome {
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("lga-\(UUID().uuidString.prefix(8))")
    let home = LedgerlyHome(root: root)
    try home.prepare()
    return home
}

func sampleAlert(id: Int64 = 42, key: String? = nil) -> AlertRecord {
    AlertRecord(
        id: id,
        kind: .budgetThreshold,
        key: key ?? "budget:7:2026-11:\(id)",
        subject: "Groceries",
        message: "Groceries: 80 % of the November budget spent (160.00 of 200.00 EUR)",
        period: "2026-11",
        threshold: 80,
        data: .object(["budgetId": .integer(7), "spent": .string("160.00"), "limit": .string("200.00"), "currency": .string("EUR")]),
        raisedAt: "2026-11-20T09:30:00Z"
    )
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(30), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}

/// Keeps every log line, for assertions on what the sinks log.
final class LogCapture: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let storage = Mutex<[Line]>([])

    var lines: [Line] { storage.withLock { $0 } }

    var logger: Logger {
        var logger = Logger(label: "ledgerly-alerts-test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: Line) { storage.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append(Line(level: event.level, message: event.message.description, metadata: merged.mapValues { "\($0)" }))
        }
    }
}

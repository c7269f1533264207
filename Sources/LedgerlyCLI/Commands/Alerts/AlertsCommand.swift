import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol
import ZeroMQ

/// `ledgerly alerts [--follow] [--since …]` and `ledgerly alerts list`: the alert log.
struct AlertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts", abstract: "Budget, goal, recurring and rate alerts: print them as they happen, or list the history.",
        discussion: """
            `ledgerly alerts --follow` prints each alert as it is raised, until interrupted; with \
            --since it first prints the ones raised since then (missed while it was not running).
            Each alert is raised once (per budget, month and threshold; per goal milestone; per \
            occurrence), whatever restarts happen.
            """,
        subcommands: [List.self])

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Flag(name: .shortAndLong, help: "Keep running and print alerts as they are raised.") var follow = false
    @Option(help: "Also print the alerts raised since this time (YYYY-MM-DD or ISO 8601).") var since: String?

    static func line(_ alert: AlertRecord, json: Bool) throws -> String {
        if json { return String(decoding: try MessageCoding.encode(alert), as: UTF8.self) }
        let when = alert.raisedAt.prefix(19).replacingEvery("T", with: " ")
        return "\(when)  \(alert.kind.rawValue.padded(toLength: 16))  \(alert.message)"
    }

    /// Prints one line and flushes it at once: a follower's output is often piped.
    static func emit(_ alert: AlertRecord, json: Bool) throws {
        CommandOutput.current.writeOutput(try line(alert, json: json) + "\n")
    }

    func run() throws {
        try CommandRunner.run {
            let gateway = try Gateway(global)
            guard follow else {
                let alerts = try gateway.call(AlertListRequest(since: since, limit: 50)).alerts
                if output.json { return try JSONOutput.print(AlertListReply(alerts: alerts)) }
                if alerts.isEmpty { return print("No alerts\(since.map { " since \($0)" } ?? " yet").") }
                for alert in alerts { try Self.emit(alert, json: false) }
                return
            }
            // Subscribe first, then read the log: an alert raised in between is in one or the other,
            // and ids tell which were printed already.
            let events = try gateway.subscribe(ChangeEventType.alertRaised.rawValue)
            defer { events.close() }
            // The newest id before reading what was missed: an alert raised between the two reads
            // is then among the missed ones, never taken for one already printed.
            var lastId = try gateway.call(AlertListRequest(limit: 1)).alerts.last?.id ?? 0
            if let since {
                let missed = try gateway.call(AlertListRequest(since: since, limit: 10_000)).alerts
                for alert in missed { try Self.emit(alert, json: output.json) }
                lastId = missed.last.map { max($0.id, lastId) } ?? lastId
            }
            while true {
                var inOrder = false
                if try events.waitForInput(timeoutMilliseconds: 1_000), let frames = try events.receive(dontWait: true), frames.count == 2,
                   let event = try? MessageCoding.decoder().decode(ChangeEvent.self, from: frames[1]),
                   let alert = try? event.data.decode(AlertRecord.self) {
                    if alert.id == lastId + 1 {
                        try Self.emit(alert, json: output.json)
                        lastId = alert.id
                    }
                    inOrder = alert.id <= lastId
                }
                // A gap in ids, or a quiet second: read the log for anything the events missed.
                if !inOrder {
                    for alert in try gateway.call(AlertListRequest(afterId: lastId, limit: 10_000)).alerts {
                        try Self.emit(alert, json: output.json)
                        lastId = alert.id
                    }
                }
            }
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The alert history, oldest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only alerts raised since this time (YYYY-MM-DD or ISO 8601).") var since: String?
        @Option(help: "At most this many (the newest).") var limit = 50

        func reply(from gateway: Gateway) throws -> AlertListReply {
            try gateway.call(AlertListRequest(since: since, limit: limit))
        }

        func render(_ reply: AlertListReply, gateway: Gateway) throws {
            let alerts = reply.alerts
            if alerts.isEmpty { return print("No alerts\(since.map { " since \($0)" } ?? " yet").") }
            var table = Table([.init("ID", .right), .init("RAISED"), .init("KIND"), .init("ALERT")])
            for alert in alerts {
                table.add([String(alert.id), alert.raisedAt.prefix(19).replacingEvery("T", with: " "), alert.kind.rawValue, alert.message])
            }
            print(table.render(), terminator: "")
        }
    }
}

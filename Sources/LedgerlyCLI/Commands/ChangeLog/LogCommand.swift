import ArgumentParser
import LedgerlyProtocol

/// `ledgerly log`: the store's change log, newest last.
struct LogCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show the change log: every change the store has committed, in order.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Show the last N changes.")
    var limit: Int = 20

    @Option(help: "Show changes after this seq instead of the last N.")
    var after: Int64?

    func validate() throws {
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be 1 to 1000") }
    }

    /// With the seq the page starts after (`--after`, or the last N from the store's last seq).
    func reply(from gateway: Gateway) throws -> Resolved<EventsSinceReply, Int64> {
        let start: Int64
        if let after {
            start = after
        } else {
            let last = try gateway.call(StatusRequest()).lastSeq
            start = max(0, last - Int64(limit))
        }
        return Resolved(try gateway.call(EventsSinceRequest(after: start, limit: limit)), start)
    }

    func render(_ resolved: Resolved<EventsSinceReply, Int64>, gateway: Gateway) throws {
        let reply = resolved.body, start = resolved.context
        var table = Table([.init("SEQ", .right), .init("TIME"), .init("TYPE"), .init("ENTITY"), .init("ID", .right)])
        for event in reply.events { table.add([String(event.seq), event.ts, event.type, event.entity, event.id]) }
        print(table.render(), terminator: "")
        if reply.events.isEmpty { print("No changes after seq \(start).") }
    }
}

import ArgumentParser
import LedgerlyProtocol

/// `ledgerly log`: the store's change log, newest last.
struct LogCommand: ParsableCommand {
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

    func run() throws {
        try CommandRunner.run {
            let gateway = try Gateway(global)
            let start: Int64
            if let after {
                start = after
            } else {
                let last = try gateway.call(StatusRequest()).lastSeq
                start = max(0, last - Int64(limit))
            }
            let reply = try gateway.call(EventsSinceRequest(after: start, limit: limit))
            if output.json { return try JSONOutput.print(reply) }
            var table = Table([.init("SEQ", .right), .init("TIME"), .init("TYPE"), .init("ENTITY"), .init("ID", .right)])
            for event in reply.events { table.add([String(event.seq), event.ts, event.type, event.entity, event.id]) }
            print(table.render(), terminator: "")
            if reply.events.isEmpty { print("No changes after seq \(start).") }
        }
    }
}

import ArgumentParser

/// A command that asks the services for one reply and shows it: the reply body as JSON with
/// `--json`, else the command's own view. A command declares its options, how it gets the reply
/// (`reply(from:)`) and how a person reads it (`render`); the rest, written once here, is what
/// every such command did alike (D500): a `Gateway` for the global options and the command's
/// field wording, errors reported by `CommandRunner` with their exit status, and `--json`.
///
/// `global` and `output` are still stored in each command (`@OptionGroup var global:
/// GlobalOptions`, `@OptionGroup var output: OutputOptions`): swift-argument-parser reads options
/// from a command's stored properties only, and `--color` is found there (`GlobalOptions.of`).
protocol ReplyCommand: ParsableCommand {
    /// What `--json` prints: the protocol's reply body, as the service sent it.
    associatedtype Reply: Encodable

    /// `GlobalOptions` for all but the few commands that take `--home` and `--timeout` alone
    /// (`HomeOptions`: `category add` and `edit`, whose `--color` is the category's).
    associatedtype Address: ServiceAddress
    var global: Address { get }
    /// `OutputOptions`, or `ReportOutputOptions` for a report that also prints CSV.
    associatedtype Output: JSONChoice
    var output: Output { get }

    /// The command's names for the request fields it fills, so an error names what was typed
    /// (FieldWording); none unless the command says.
    var wording: FieldWording { get }

    /// How long the store may take to answer, for a request that takes seconds (a backup, an
    /// import undone): the store's status is asked first with the usual timeout, so a store
    /// that is down is still reported at once (`Gateway(_:patientMilliseconds:wording:)`).
    /// Nil, the usual timeout, unless the command says.
    static var patientMilliseconds: Int? { get }

    /// Sends the command's request(s) and returns the reply to show.
    func reply(from gateway: Gateway) throws -> Reply

    /// Prints `reply` for a person (without `--json`); `gateway` is there for a view that needs
    /// names the reply holds only as ids.
    func render(_ reply: Reply, gateway: Gateway) throws
}

extension ReplyCommand {
    var wording: FieldWording { [:] }

    static var patientMilliseconds: Int? { nil }

    func run() throws {
        try CommandRunner.run {
            let gateway = try Self.patientMilliseconds.map { try Gateway(global, patientMilliseconds: $0, wording: wording) } ?? Gateway(global, wording: wording)
            let reply = try reply(from: gateway)
            if output.json { return try JSONOutput.print(reply) }
            try render(reply, gateway: gateway)
        }
    }
}

/// Options that hold `--json`: what `ReplyCommand.run` reads to print the reply as it came.
protocol JSONChoice {
    var json: Bool { get }
}

extension OutputOptions: JSONChoice {}

extension ReportOutputOptions: JSONChoice {}

/// A reply with what the command looked up to send its request (the wallet a transaction went
/// into, the accounts a trade names), for a view that shows those: `--json` prints the reply
/// alone, exactly as the service sent it, and the view reads both without asking the store
/// again (D560).
struct Resolved<Body: Encodable, Context>: Encodable {
    let body: Body
    let context: Context

    init(_ body: Body, _ context: Context) {
        self.body = body
        self.context = context
    }

    /// The body's own encoding, through a single-value container so the encoder treats it as it
    /// treats the body printed alone.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(body)
    }
}

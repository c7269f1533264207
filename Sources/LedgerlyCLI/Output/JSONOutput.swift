import FoundationEssentials
import LedgerlyProtocol

/// Prints a reply body as pretty JSON with sorted keys: the same shape as the protocol's reply.
enum JSONOutput {
    static func print<Value: Encodable>(_ value: Value) throws {
        let encoder = MessageCoding.encoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        CommandOutput.current.written(data)
        CommandOutput.current.written(Data("\n".utf8))
    }
}

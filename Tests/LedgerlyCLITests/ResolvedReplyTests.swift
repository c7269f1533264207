import Foundation
@testable import LedgerlyCLI
import LedgerlyProtocol
import Synchronization
import Testing

/// A command whose view needs what it looked up to send its request returns it beside the reply
/// (`Resolved`, and `convert`'s `Outcome` for its two requests); `--json` must still print the
/// reply alone, byte for byte what printing the reply by itself gives (D560).
@Suite struct ResolvedReplyTests {
    /// What `JSONOutput.print` writes for `value`, as `--json` prints it.
    private func printed(_ value: some Encodable) throws -> String {
        let text = Mutex("")
        let output = CommandOutput(standardOutput: { printed in text.withLock { $0 += printed } }, standardError: { _ in })
        try CommandOutput.$current.withValue(output) { try JSONOutput.print(value) }
        return text.withLock { $0 }
    }

    @Test func aResolvedReplyPrintsAsTheReplyAlone() throws {
        let reply = TagListReply(tags: [TagRecord(id: 7, name: "weekly"), TagRecord(id: 8, name: "café/bar")])
        let alone = try printed(reply)
        #expect(alone.hasPrefix("{\n  \"tags\" : ["))
        #expect(try printed(Resolved(reply, "the wallet a view names")) == alone)
        #expect(try printed(Resolved(TagRecord(id: 1, name: "x"), 42)) == (try printed(TagRecord(id: 1, name: "x"))))
    }

    @Test func convertPrintsTheReplyOfTheRequestItSent() throws {
        let history = ConversionHistoryReply(conversions: [])
        #expect(try printed(ConvertCommand.Outcome.history(history)) == (try printed(history)))
    }
}

@testable import LedgerlyCLI
import LedgerlyProtocol
import Testing

/// `sync status`'s `Authentication:` line says what the last connection a round reported used,
/// or that none has yet (D531); before, it printed the rule whatever the hub did.
@Suite("sync status authentication line")
struct SyncStatusAuthenticationLineTests {
    func status(_ authentication: String?) -> SyncStatusReply {
        var reply = SyncStatusReply(state: "syncing", ledgerId: nil, deviceId: nil, hub: "postgres://u@hub.example:5432/db", lastSuccess: nil, lastError: nil,
                                    lastErrorAt: nil, waitingOut: 0, waitingIn: nil, pulledSeq: 0, notices: [])
        reply.hubAuthentication = authentication
        return reply
    }

    @Test(arguments: [
        (nil, "Authentication: not connected yet"),
        ("SCRAM-SHA-256", "Authentication: SCRAM-SHA-256"),
        ("refused: the server asked for an MD5 hash of the password, which Ledgerly does not send",
         "Authentication: refused: the server asked for an MD5 hash of the password, which Ledgerly does not send"),
    ] as [(String?, String)])
    func theLineSaysWhatWasReported(authentication: String?, line: String) {
        let lines = SyncStatusCommand.lines(status(authentication))
        #expect(lines.filter { $0.hasPrefix("Authentication:") } == [line], "\(lines)")
    }
}

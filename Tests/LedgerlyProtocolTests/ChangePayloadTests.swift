import LedgerlyProtocol
import Testing

/// The typed event payload: a type this version does not know is passed over, not an error.
@Suite struct ChangePayloadTests {
    static func event(type: String, data: JSONValue) -> ChangeEvent {
        ChangeEvent(seq: 1, epoch: "e", type: type, ts: "2026-11-24T00:00:00.000Z", entity: "x", id: "1", data: data)
    }

    @Test func anEventTypeFromANewerStoreIsUnknownNotAnError() throws {
        let event = Self.event(type: "portfolio.rebalanced", data: .object(["anything": .string("goes")]))
        #expect(event.kind == nil)
        guard case .unknown(let type) = try event.payload() else {
            Issue.record("expected .unknown")
            return
        }
        #expect(type == "portfolio.rebalanced")
    }

    @Test func aKnownTypeWhoseDataDoesNotMatchItsRecordThrows() {
        let event = Self.event(type: "tx.created", data: .object(["id": .string("not a number")]))
        #expect(event.kind == .txCreated)
        #expect(throws: DecodingError.self) { _ = try event.payload() }
    }
}

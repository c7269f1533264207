import Foundation
import LedgerlyProtocol
import Testing

@Suite struct RequestDecodingTests {
    static func frame(_ body: String, type: String = "tx.create") -> Data {
        Data(#"{"v":1,"id":"a","type":"\#(type)","ts":"2026-11-21T12:00:00Z","key":"k","body":\#(body)}"#.utf8)
    }

    @Test func decodesAValidRequest() throws {
        let request = try RequestDecoding.request(TransactionCreateRequest.self, from: Self.frame(#"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","splits":[{"amount":"1.00","categoryId":2,"memo":null}]}"#))
        #expect(request.body.amount == "3.00")
        #expect(request.body.splits?.first?.memo == nil)
    }

    @Test(arguments: [
        (#"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","note":"x"}"#, "body.note"),
        (#"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","splits":[{"amount":"1","categoryId":1,"x":1}]}"#, "body.splits[0].x"),
        (#"{"kind":"expense","walletId":1,"date":"2026-11-21"}"#, "body.amount"),
        (#"{"kind":"expense","walletId":"one","amount":"3.00","date":"2026-11-21"}"#, "body.walletId"),
        (#"{"kind":"refund","walletId":1,"amount":"3.00","date":"2026-11-21"}"#, "body.kind"),
    ])
    func namesTheFieldAtFault(body: String, field: String) {
        #expect {
            _ = try RequestDecoding.request(TransactionCreateRequest.self, from: Self.frame(body))
        } throws: { error in
            (error as? ErrorBody)?.field == field && (error as? ErrorBody)?.code == .validationFailed
        }
    }

    @Test func refusesOtherMajorVersionsBeforeAnythingElse() {
        #expect(throws: ErrorBody(code: .unsupportedVersion, message: "protocol version 2 is not supported; this service speaks v1", field: "v")) {
            _ = try RequestDecoding.header(of: Data(#"{"v":2}"#.utf8))
        }
    }

    @Test func ignoresUnknownEnvelopeFields() throws {
        let header = try RequestDecoding.header(of: Data(#"{"v":1,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","trace":"x","body":{}}"#.utf8))
        #expect(header.type == "status")
    }
}

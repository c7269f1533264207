import Foundation

/// `webhook_receiver.py` on a free loopback port: verifies each alert's HMAC signature and keeps
/// what it received. It stops when this object goes.
final class WebhookReceiver {
    struct Received: Decodable {
        let valid: Bool
        let key: String?
        /// A change's `X-Ledgerly-Event` and `X-Ledgerly-Change-Key`.
        let event: String?
        let changeKey: String?
    }

    private let script: LoopbackScript

    var port: Int { script.port }

    /// `hash` is the HMAC's hash as Python's hashlib names it: sha256, or sha3_256.
    init(secret: String, hash: String = "sha256") throws {
        script = try LoopbackScript("webhook_receiver.py", name: "webhook") { state in [state.path, secret, hash] }
    }

    var url: String { "http://127.0.0.1:\(port)/alerts" }

    /// While down, it answers 503 to every request.
    func setDown(_ down: Bool) { script.setMarker("down", down) }

    var received: [Received] {
        script.read("received.log").split(separator: "\n").compactMap { try? JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    var attempts: Int { script.read("attempts.log").split(separator: "\n").count }
}

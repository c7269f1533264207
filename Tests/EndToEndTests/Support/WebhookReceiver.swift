import Foundation

/// `webhook_receiver.py` on a free loopback port: verifies each alert's HMAC signature and keeps
/// what it received. It stops when this object goes.
final class WebhookReceiver {
    struct Received: Decodable {
        let valid: Bool
        let key: String?
    }

    private let script: LoopbackScript

    var port: Int { script.port }

    init(secret: String) throws {
        script = try LoopbackScript("webhook_receiver.py", name: "webhook") { state in [state.path, secret] }
    }

    var url: String { "http://127.0.0.1:\(port)/alerts" }

    /// While down, it answers 503 to every request.
    func setDown(_ down: Bool) { script.setMarker("down", down) }

    var received: [Received] {
        script.read("received.log").split(separator: "\n").compactMap { try? JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    var attempts: Int { script.read("attempts.log").split(separator: "\n").count }
}

import Foundation

/// `webhook_receiver.py` on a free loopback port: verifies each alert's HMAC signature and keeps
/// what it received. It stops when this object goes (its stdin closes).
final class WebhookReceiver {
    struct Received: Decodable {
        let valid: Bool
        let key: String?
    }

    let port: Int
    let state: URL
    private let process = Process()
    private let input = Pipe()

    init(secret: String) throws {
        state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("webhook-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("webhook_receiver.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, state.path, secret]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw HarnessError.timedOut("the webhook receiver's port") }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)/alerts" }

    /// While down, it answers 503 to every request.
    func setDown(_ down: Bool) {
        let marker = state.appendingPathComponent("down")
        if down { _ = FileManager.default.createFile(atPath: marker.path, contents: nil) } else { try? FileManager.default.removeItem(at: marker) }
    }

    var received: [Received] {
        let text = (try? String(contentsOf: state.appendingPathComponent("received.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    var attempts: Int {
        ((try? String(contentsOf: state.appendingPathComponent("attempts.log"), encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: state)
    }
}

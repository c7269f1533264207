import Foundation

/// The recorded-provider HTTP server (`provider_server.py`) on a free loopback port, serving
/// `Tests/LedgerlyRatesTests/Fixtures`. It stops when this object goes (its stdin closes).
final class ProviderServer {
    let port: Int
    /// Where the server logs requests and looks for `<key>.down` switches.
    let state: URL
    private let process = Process()
    private let input = Pipe()

    init() throws {
        state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("providers-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", tests.appendingPathComponent("EndToEndTests/Support/provider_server.py").path,
                             tests.appendingPathComponent("LedgerlyRatesTests/Fixtures").path, state.path]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw HarnessError.timedOut("the provider server's port") }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// `switch/<key>/…` URLs answer HTTP 500 while down.
    func setDown(_ key: String, _ down: Bool) {
        let marker = state.appendingPathComponent("\(key).down")
        if down { _ = FileManager.default.createFile(atPath: marker.path, contents: nil) } else { try? FileManager.default.removeItem(at: marker) }
    }

    /// When each request for a path containing `fragment` arrived (Unix seconds), oldest first.
    func requestTimes(containing fragment: String) -> [Double] {
        let text = (try? String(contentsOf: state.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[1].contains(fragment) else { return nil }
            return Double(parts[0])
        }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: state)
    }
}

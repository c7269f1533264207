import Foundation

/// The recorded-provider HTTP server (`provider_server.py`) on a free loopback port, serving
/// `Tests/LedgerlyRatesTests/Fixtures`. It stops when this object goes (its stdin closes).
final class ProviderServer {
    let port: Int
    private let process = Process()
    private let input = Pipe()

    init() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", tests.appendingPathComponent("EndToEndTests/Support/provider_server.py").path,
                             tests.appendingPathComponent("LedgerlyRatesTests/Fixtures").path]
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

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}

import Foundation

/// The recorded-provider HTTP server (`provider_server.py`) on a free loopback port, serving
/// `Tests/LedgerlyRatesTests/Fixtures`; it logs requests and answers 500 for `<key>.down` switches.
/// It stops when this object goes.
final class ProviderServer {
    private let script: LoopbackScript

    var port: Int { script.port }

    init() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        script = try LoopbackScript("provider_server.py", name: "providers") { state in
            [tests.appendingPathComponent("LedgerlyRatesTests/Fixtures").path, state.path]
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Serves `text` at `state/<name>` from now on (written whole, then moved into place, so a
    /// request never reads half of it): a document dated today, or one the test changes.
    func serve(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: script.state.appendingPathComponent(name), options: .atomic)
    }

    /// How many requests reached the server at all: what "no provider was asked" is checked by.
    var requestCount: Int { script.read("requests.log").split(separator: "\n").count }

    /// `switch/<key>/…` URLs answer HTTP 500 while down.
    func setDown(_ key: String, _ down: Bool) { script.setMarker("\(key).down", down) }

    /// The paths (with their query strings) of the requests containing `fragment`, oldest first.
    func requestPaths(containing fragment: String) -> [String] {
        script.read("requests.log").split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[1].contains(fragment) else { return nil }
            return String(parts[1])
        }
    }

    /// When each request for a path containing `fragment` arrived (Unix seconds), oldest first.
    func requestTimes(containing fragment: String) -> [Double] {
        script.read("requests.log").split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[1].contains(fragment) else { return nil }
            return Double(parts[0])
        }
    }
}

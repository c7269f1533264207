import Foundation
import LedgerlyRuntime

/// `web.json` in the home's configuration folder: `{"listen": "127.0.0.1:8470"}`. Absent means
/// the default; `--listen` overrides it. Unknown keys are refused so a typo is not ignored.
public enum WebConfiguration {
    public static let fileName = "web.json"

    public static func listenAddress(home: LedgerlyHome) throws -> WebListenAddress {
        let url = home.configDirectory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return .fallback }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw WebConfigurationError("\(url.path): not a JSON object")
        }
        for key in object.keys where key != "listen" {
            throw WebConfigurationError("\(url.path): unknown key '\(key)' (known: listen)")
        }
        guard let listen = object["listen"] else { return .fallback }
        guard let text = listen as? String else { throw WebConfigurationError("\(url.path): listen must be a string such as \"127.0.0.1:8470\"") }
        do {
            return try WebListenAddress(parsing: text)
        } catch {
            throw WebConfigurationError("\(url.path): listen: \(error)")
        }
    }
}

public struct WebConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

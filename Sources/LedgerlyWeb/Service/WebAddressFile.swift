import Foundation
import LedgerlyRuntime

/// `web.address` in the home's run folder, written once the server listens: the URL, the pid and,
/// under HTTPS, the certificate's SHA-256 fingerprint, one per line. `ledgerly web open` and
/// `ledgerly web pair` build from it (a port of 0 in tests is only known once bound; the
/// fingerprint is the one of the certificate actually served) and `ledgerly status` shows
/// whether the pid is a live ledgerly-web. Removed at a clean stop.
public enum WebAddressFile {
    public static let fileName = "web.address"

    public static func url(home: LedgerlyHome) -> URL { home.runDirectory.appendingPathComponent(fileName) }

    public static func write(home: LedgerlyHome, address: String, pid: Int32, fingerprint: String? = nil) throws {
        let target = url(home: home)
        let temporary = target.appendingPathExtension("tmp")
        let text = "\(address)\n\(pid)\n" + (fingerprint.map { "\($0)\n" } ?? "")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw WebConfigurationError("cannot write \(temporary.path)")
        }
        guard rename(temporary.path, target.path) == 0 else { throw WebConfigurationError("cannot write \(target.path)") }
    }

    public static func remove(home: LedgerlyHome) {
        unlink(url(home: home).path)
    }
}

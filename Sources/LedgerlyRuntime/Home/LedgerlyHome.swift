import Foundation

/// Where one Ledgerly installation keeps its data and its sockets.
///
/// Resolution order: an explicit path (`--home`), `$LEDGERLY_HOME`, `$XDG_DATA_HOME/ledgerly`,
/// `~/.local/share/ledgerly`. The home and its `run/` and `state/` folders are created mode 0700,
/// so only the owner's processes can reach the ipc sockets or read the database.
public struct LedgerlyHome: Sendable, Hashable {
    public static let environmentVariable = "LEDGERLY_HOME"

    public let root: URL

    public init(root: URL) { self.root = root.standardizedFileURL }

    /// Resolves the home from an explicit path or the environment; does not create anything.
    public static func resolve(explicit: String? = nil, environment: [String: String] = resolutionEnvironment()) -> LedgerlyHome {
        if let explicit, !explicit.isEmpty { return LedgerlyHome(root: URL(fileURLWithPath: explicit)) }
        if let path = environment[environmentVariable], !path.isEmpty { return LedgerlyHome(root: URL(fileURLWithPath: path)) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return LedgerlyHome(root: URL(fileURLWithPath: xdg).appendingPathComponent("ledgerly"))
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return LedgerlyHome(root: URL(fileURLWithPath: home).appendingPathComponent(".local/share/ledgerly"))
    }

    /// The variables `resolve` reads, and only those, from the process environment. Read one by
    /// one with `getenv` because `ProcessInfo.environment` copies the whole environment into a
    /// dictionary first, which every CLI command paid at start (D272).
    public static func resolutionEnvironment() -> [String: String] {
        var variables: [String: String] = [:]
        for name in [environmentVariable, "XDG_DATA_HOME", "HOME"] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }

    public var databaseURL: URL { root.appendingPathComponent("ledgerly.sqlite") }
    public var runDirectory: URL { root.appendingPathComponent("run") }
    public var stateDirectory: URL { root.appendingPathComponent("state") }
    public var logDirectory: URL { root.appendingPathComponent("logs") }

    public var storeCommandEndpoint: String { ipc("store.cmd") }
    public var storeEventsEndpoint: String { ipc("store.events") }
    public var ratesCommandEndpoint: String { ipc("rates.cmd") }
    public var alertsCommandEndpoint: String { ipc("alerts.cmd") }
    public var syncCommandEndpoint: String { ipc("sync.cmd") }

    private func ipc(_ name: String) -> String { "ipc://" + runDirectory.appendingPathComponent(name).path }

    /// Creates the home, `run/`, `state/` and `logs/` with mode 0700 (tightening existing ones).
    public func prepare() throws(HomeError) {
        for directory in [root, runDirectory, stateDirectory, logDirectory] {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            } catch {
                throw HomeError.cannotCreate(directory.path, "\(error.localizedDescription)")
            }
        }
        // sun_path holds 107 bytes; a longer ipc path would fail deep inside libzmq.
        let longest = runDirectory.appendingPathComponent("store.events").path
        if longest.utf8.count > 100 {
            throw HomeError.pathTooLong(longest)
        }
    }
}

public enum HomeError: Error, CustomStringConvertible, Sendable {
    case cannotCreate(String, String)
    case pathTooLong(String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        case .pathTooLong(let path): "the socket path \(path) is too long for a Unix socket (100 bytes at most); choose a shorter home with --home or \(LedgerlyHome.environmentVariable)"
        }
    }
}

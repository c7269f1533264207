import FoundationEssentials
import LedgerlyFiles
import Glibc

/// Where one Ledgerly installation keeps its data, configuration, state and sockets.
///
/// Resolution order for the data directory: an explicit path (`--home`), `$LEDGERLY_HOME`,
/// `$XDG_DATA_HOME/ledgerly`, `~/.local/share/ledgerly`.
///
/// Two layouts (D327):
/// - **The default home** (the data directory is `$XDG_DATA_HOME/ledgerly` or
///   `~/.local/share/ledgerly`, however it was named) follows the XDG base directories: the
///   database in the data directory, configuration (`rates.json`, `alerts.json`, with their API
///   keys and secrets) in `$XDG_CONFIG_HOME/ledgerly`, cursors, outbox and logs in
///   `$XDG_STATE_HOME/ledgerly`, sockets and locks in `$XDG_RUNTIME_DIR/ledgerly` when that is
///   set (else `run/` in the data directory, as before).
/// - **Any other home** (`--home /tmp/x`, a test's, a second ledger) keeps everything in its one
///   folder: config files at its top, `state/`, `logs/`, `run/`. So a home can be copied, backed
///   up or deleted as one folder, and tests stay apart.
///
/// Every folder is created mode 0700, so only the owner's processes can reach the sockets or read
/// the database. A default home made before the XDG layout is moved over by `prepare()`.
public struct LedgerlyHome: Sendable, Hashable {
    public static let environmentVariable = "LEDGERLY_HOME"

    /// The data directory: the database, backups, the drop folders, sync credentials.
    public let root: URL
    /// `rates.json`, `alerts.json`.
    public let configDirectory: URL
    /// Cursors, the alert outbox.
    public let stateDirectory: URL
    /// Where the deploy scripts' supervisord writes the services' logs.
    public let logDirectory: URL
    /// ipc sockets.
    public let runDirectory: URL
    /// The services' instance locks: always `run/` in the data directory (`LedgerlyService.lockPath`).
    public var lockDirectory: URL { root.appendingPathComponent("run") }
    /// Whether this is the default home in the XDG layout.
    public let followsXDG: Bool

    /// A self-contained home: everything in `root`.
    public init(root: URL) {
        let root = root.standardizedFileURL
        self.root = root
        self.configDirectory = root
        self.stateDirectory = root.appendingPathComponent("state")
        self.logDirectory = root.appendingPathComponent("logs")
        self.runDirectory = root.appendingPathComponent("run")
        self.followsXDG = false
    }

    private init(xdgRoot root: URL, environment: [String: String]) {
        let user = URL(fileURLWithPath: environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path)
        func base(_ variable: String, _ fallback: String) -> URL {
            // The XDG spec: an unset, empty or relative value is ignored.
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return user.appendingPathComponent(fallback)
        }
        self.root = root.standardizedFileURL
        self.configDirectory = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("ledgerly").standardizedFileURL
        let state = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("ledgerly").standardizedFileURL
        self.stateDirectory = state
        self.logDirectory = state.appendingPathComponent("logs")
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            self.runDirectory = URL(fileURLWithPath: runtime).appendingPathComponent("ledgerly").standardizedFileURL
        } else {
            self.runDirectory = root.appendingPathComponent("run")
        }
        self.followsXDG = true
    }

    /// Resolves the home from an explicit path or the environment; does not create anything.
    public static func resolve(explicit: String? = nil, environment: [String: String] = resolutionEnvironment()) -> LedgerlyHome {
        let named: URL? = if let explicit, !explicit.isEmpty {
            URL(fileURLWithPath: explicit)
        } else if let path = environment[environmentVariable], !path.isEmpty {
            URL(fileURLWithPath: path)
        } else {
            nil
        }
        let standard = defaultDataDirectory(environment: environment)
        guard let named, named.standardizedFileURL.path != standard.standardizedFileURL.path else {
            return LedgerlyHome(xdgRoot: standard, environment: environment)
        }
        return LedgerlyHome(root: named)
    }

    /// `$XDG_DATA_HOME/ledgerly`, else `~/.local/share/ledgerly`.
    public static func defaultDataDirectory(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("ledgerly")
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/ledgerly")
    }

    /// The variables `resolve` reads, and only those, from the process environment. Read one by
    /// one with `getenv` because `ProcessInfo.environment` copies the whole environment into a
    /// dictionary first, which every CLI command paid at start (D272).
    public static func resolutionEnvironment() -> [String: String] {
        var variables: [String: String] = [:]
        for name in [environmentVariable, "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "HOME"] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }

    public var databaseURL: URL { root.appendingPathComponent("ledgerly.sqlite") }

    /// A configuration file still at its place from before the XDG layout (the data directory),
    /// not moved yet because no service has started since: nil when there is none, or when the
    /// new place has a file (that one is read).
    public func unmovedConfiguration(_ name: String) -> URL? {
        guard followsXDG else { return nil }
        let old = root.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: old.path),
              !FileManager.default.fileExists(atPath: configDirectory.appendingPathComponent(name).path) else { return nil }
        return old
    }

    public var storeCommandEndpoint: String { ipc("store.cmd") }
    public var storeEventsEndpoint: String { ipc("store.events") }
    public var ratesCommandEndpoint: String { ipc("rates.cmd") }
    public var alertsCommandEndpoint: String { ipc("alerts.cmd") }
    public var syncCommandEndpoint: String { ipc("sync.cmd") }

    private func ipc(_ name: String) -> String { "ipc://" + runDirectory.appendingPathComponent(name).path }

    /// Creates the home's folders with mode 0700 (tightening existing ones) and, for the default
    /// home, moves what an older version kept in the data directory to its XDG place. Returns one
    /// line per thing moved, for the caller to log.
    ///
    /// Refuses a home whose data directory another user owns (D439): a service running as root
    /// on a user's home would otherwise write, as root, into folders that user controls.
    @discardableResult
    public func prepare() throws(HomeError) -> [String] {
        try checkOwner()
        for directory in Set([root, configDirectory, runDirectory, lockDirectory, stateDirectory, logDirectory]) {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            } catch {
                throw HomeError.cannotCreate(directory.path, FileSystemErrorText.reason(error))
            }
        }
        // sun_path holds 107 bytes; a longer ipc path would fail deep inside libzmq.
        let longest = runDirectory.appendingPathComponent("store.events").path
        if longest.utf8.count > 100 {
            throw HomeError.pathTooLong(longest)
        }
        return followsXDG ? HomeLayoutMove(home: self).run() : []
    }

    /// Throws `HomeError.notOwner` when the data directory exists and is not owned by the user this
    /// process runs as (its effective uid). A directory not made yet is made by `prepare()`, so it
    /// is ours.
    ///
    /// A home that is a symbolic link must be ours twice, the link and what it points to (D462):
    /// following the link alone let another user point their home at a folder of ours (root's
    /// `/etc`, say), and a service running as us would then chmod and write into it.
    public func checkOwner() throws(HomeError) {
        var info = stat()
        guard lstat(root.path, &info) == 0 else { return }
        let user = geteuid()
        guard info.st_uid == user else {
            throw .notOwner(root.path, owner: info.st_uid, user: user)
        }
        guard info.st_mode & S_IFMT == S_IFLNK, stat(root.path, &info) == 0 else { return }
        guard info.st_uid == user else {
            throw .notOwner(root.path, owner: info.st_uid, user: user)
        }
    }
}

public enum HomeError: Error, CustomStringConvertible, Sendable {
    case cannotCreate(String, String)
    case pathTooLong(String)
    case notOwner(String, owner: uid_t, user: uid_t)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        case .notOwner(let path, let owner, let user): "the Ledgerly home \(path) belongs to user id \(owner), not to the user running this (id \(user)): run Ledgerly as its owner, or give a home of your own with --home or \(LedgerlyHome.environmentVariable)"
        case .pathTooLong(let path): "the socket path \(path) is too long for a Unix socket (100 bytes at most); choose a shorter home with --home or \(LedgerlyHome.environmentVariable)"
        }
    }
}

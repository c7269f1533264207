import FoundationEssentials

/// How to start Ledgerly, said the way it was installed: from a source checkout (`deploy/start.sh`
/// exists only there), with systemd user units (a package's, `make install`'s, or the user's own),
/// or as plain executables.
enum StartHint {
    static var text: String {
        let executable = OwnExecutable.path
        if let range = executable.utf8.firstRange(of: "/.build/".utf8) {
            let checkout = String(executable[..<range.lowerBound])
            if FileManager.default.fileExists(atPath: "\(checkout)/deploy/start.sh") { return "run \(checkout)/deploy/start.sh" }
        }
        if systemdUnitsInstalled {
            return "systemctl --user start ledgerly-store ledgerly-rates ledgerly-alerts"
        }
        return "start ledgerly-store, ledgerly-rates and ledgerly-alerts (each takes --home like this command)"
    }

    /// Whether a Ledgerly systemd user unit is where systemd looks for one (or where
    /// `make install PREFIX=…` put it, <prefix>/lib/systemd/user beside <prefix>/bin).
    static var systemdUnitsInstalled: Bool {
        let configHome = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? "\(FileManager.default.homeDirectoryForCurrentUser.path)/.config"
        let installed = URL(fileURLWithPath: OwnExecutable.path).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/systemd/user").path
        let unitFolders = ["\(configHome)/systemd/user", "/usr/lib/systemd/user", "/etc/systemd/user", "/usr/local/lib/systemd/user", installed]
        return unitFolders.contains(where: { FileManager.default.fileExists(atPath: "\($0)/ledgerly-store.service") })
    }
}

import Foundation
import LedgerlyRuntime
import Testing

/// Where a home is and what is in it: the resolution order README documents, the endpoints every
/// process derives from it, and the folders `prepare` makes private.
@Suite struct LedgerlyHomeTests {
    static func temporaryRoot() -> URL {
        URL(fileURLWithPath: "/tmp").appendingPathComponent("lh-" + String(UUID().uuidString.prefix(8)).lowercased())
    }

    @Test func anExplicitPathWinsThenTheEnvironmentInItsOrder() {
        let environment = ["LEDGERLY_HOME": "/a/home", "XDG_DATA_HOME": "/xdg", "HOME": "/users/me"]
        #expect(LedgerlyHome.resolve(explicit: "/given", environment: environment).root.path == "/given")
        #expect(LedgerlyHome.resolve(explicit: "", environment: environment).root.path == "/a/home")
        #expect(LedgerlyHome.resolve(environment: ["LEDGERLY_HOME": "", "XDG_DATA_HOME": "/xdg", "HOME": "/users/me"]).root.path == "/xdg/ledgerly")
        #expect(LedgerlyHome.resolve(environment: ["XDG_DATA_HOME": "", "HOME": "/users/me"]).root.path == "/users/me/.local/share/ledgerly")
    }

    /// The variables read by `getenv` are the process's own, the same `ProcessInfo` sees (D272).
    @Test func theResolutionEnvironmentIsTheProcessEnvironmentsVariables() {
        let all = ProcessInfo.processInfo.environment
        let read = LedgerlyHome.resolutionEnvironment()
        let names = ["LEDGERLY_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "HOME"]
        for name in names { #expect(read[name] == all[name]) }
        #expect(read.count <= names.count)
        #expect(LedgerlyHome.resolve() == LedgerlyHome.resolve(environment: all))
    }

    @Test func theRootIsStandardized() {
        #expect(LedgerlyHome(root: URL(fileURLWithPath: "/tmp/x/../y/./z")).root.path == "/tmp/y/z")
        #expect(LedgerlyHome(root: URL(fileURLWithPath: "/tmp/y/z")) == LedgerlyHome(root: URL(fileURLWithPath: "/tmp/y/./z")))
    }

    @Test func everyEndpointIsAnIpcSocketInRun() {
        let home = LedgerlyHome(root: URL(fileURLWithPath: "/srv/ledgerly"))
        #expect(home.storeCommandEndpoint == "ipc:///srv/ledgerly/run/store.cmd")
        #expect(home.storeEventsEndpoint == "ipc:///srv/ledgerly/run/store.events")
        #expect(home.ratesCommandEndpoint == "ipc:///srv/ledgerly/run/rates.cmd")
        #expect(home.alertsCommandEndpoint == "ipc:///srv/ledgerly/run/alerts.cmd")
        #expect(home.databaseURL.path == "/srv/ledgerly/ledgerly.sqlite")
        #expect(home.stateDirectory.path == "/srv/ledgerly/state")
        #expect(home.logDirectory.path == "/srv/ledgerly/logs")
    }

    @Test func prepareMakesEveryFolderPrivateAndTightensExistingOnes() throws {
        let home = LedgerlyHome(root: Self.temporaryRoot())
        defer { try? FileManager.default.removeItem(at: home.root) }
        try FileManager.default.createDirectory(at: home.root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try home.prepare()
        for folder in [home.root, home.runDirectory, home.stateDirectory, home.logDirectory] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(folder.path)")
        }
    }

    @Test func aHomeTooDeepForASocketPathIsRefusedByPrepare() throws {
        let deep = Self.temporaryRoot().appendingPathComponent(String(repeating: "d", count: 90))
        defer { try? FileManager.default.removeItem(at: deep.deletingLastPathComponent()) }
        do throws(HomeError) {
            try LedgerlyHome(root: deep).prepare()
            Issue.record("prepare accepted a socket path longer than 100 bytes")
        } catch {
            guard case .pathTooLong(let path) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path.hasSuffix("/run/store.events"))
        }
    }

    /// The default home, however it is named, follows the XDG base directories; any other home
    /// keeps everything in its one folder (D327).
    @Test func theDefaultHomeFollowsXDGAndAnyOtherIsOneFolder() {
        let environment = ["HOME": "/users/me", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st", "XDG_RUNTIME_DIR": "/run/user/1000"]
        for home in [LedgerlyHome.resolve(environment: environment),
                     LedgerlyHome.resolve(explicit: "/users/me/.local/share/ledgerly", environment: environment),
                     LedgerlyHome.resolve(environment: environment.merging(["LEDGERLY_HOME": "/users/me/.local/share/ledgerly/"]) { $1 })] {
            #expect(home.followsXDG)
            #expect(home.root.path == "/users/me/.local/share/ledgerly")
            #expect(home.configDirectory.path == "/cfg/ledgerly")
            #expect(home.stateDirectory.path == "/st/ledgerly")
            #expect(home.logDirectory.path == "/st/ledgerly/logs")
            #expect(home.storeCommandEndpoint == "ipc:///run/user/1000/ledgerly/store.cmd")
        }
        // Unset or relative XDG variables are ignored, as the specification says; no runtime
        // folder means run/ in the data directory, as before.
        let bare = LedgerlyHome.resolve(environment: ["HOME": "/users/me", "XDG_CONFIG_HOME": "cfg", "XDG_RUNTIME_DIR": ""])
        #expect(bare.configDirectory.path == "/users/me/.config/ledgerly")
        #expect(bare.stateDirectory.path == "/users/me/.local/state/ledgerly")
        #expect(bare.runDirectory.path == "/users/me/.local/share/ledgerly/run")
        let other = LedgerlyHome.resolve(explicit: "/srv/books", environment: environment)
        #expect(!other.followsXDG)
        #expect(other.configDirectory.path == "/srv/books")
        #expect(other.runDirectory.path == "/srv/books/run")
    }

    /// A default home from before the XDG layout is moved at first start; nothing is overwritten.
    @Test func prepareMovesAnOldDefaultHomeToTheXDGPlaces() throws {
        let user = Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(at: user) }
        let data = user.appendingPathComponent(".local/share/ledgerly")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("state"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: data.appendingPathComponent("rates.json"))
        try Data("alerts".utf8).write(to: data.appendingPathComponent("alerts.json"))
        try Data("cursor".utf8).write(to: data.appendingPathComponent("state/ledgerly-alerts.cursor.json"))
        let config = user.appendingPathComponent(".config/ledgerly")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("newer".utf8).write(to: config.appendingPathComponent("alerts.json"))
        let home = LedgerlyHome.resolve(environment: ["HOME": user.path])

        let lines = try home.prepare()
        #expect(try String(contentsOf: config.appendingPathComponent("rates.json"), encoding: .utf8) == "{}")
        #expect(try String(contentsOf: home.stateDirectory.appendingPathComponent("ledgerly-alerts.cursor.json"), encoding: .utf8) == "cursor")
        // The file whose new place was taken stays, and the line says so.
        #expect(try String(contentsOf: config.appendingPathComponent("alerts.json"), encoding: .utf8) == "newer")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("alerts.json").path))
        #expect(lines.contains("moved \(data.path)/rates.json to \(config.path)/rates.json (XDG layout)"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("left \(data.path)/alerts.json in place") }, "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("state").path))
        // Once moved, nothing more to say.
        #expect(try home.prepare().count == 1)
    }
}

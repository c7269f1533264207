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
        for name in ["LEDGERLY_HOME", "XDG_DATA_HOME", "HOME"] { #expect(read[name] == all[name]) }
        #expect(read.count <= 3)
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
}

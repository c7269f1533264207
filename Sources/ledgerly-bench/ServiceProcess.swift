import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// A Ledgerly service (or the CLI) started from the same folder as this benchmark, stopped with
/// SIGTERM. A service is waited for until it answers `status`.
final class ServiceProcess {
    private let process = Process()

    static var folder: URL { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent() }

    /// `probeMilliseconds`: how long each `status` probe waits, which bounds how finely the
    /// start-up time can be measured.
    init(_ service: LedgerlyService = .store, home: LedgerlyHome, arguments: [String], probeMilliseconds: Int = 200) throws {
        process.executableURL = Self.folder.appendingPathComponent(service.name)
        process.arguments = ["--home", home.root.path] + arguments
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let context = try ZMQContext()
        let probe = RequestClient(service, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: probeMilliseconds, attempts: 1))
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            do {
                _ = try probe.call(StatusRequest())
                return
            } catch .notRunning {
                // No socket yet: wait a millisecond rather than ask again at once. Asking in a
                // tight loop took a core from the service starting on this 2-core machine and
                // added 10–20 ms to the cold start it measures (D342).
                usleep(1_000)
            } catch {}
            probe.close()
        }
        throw BenchmarkError.storeDidNotStart(seconds: 20)
    }

    var pid: Int32 { process.processIdentifier }

    func terminate() {
        process.terminate()
        process.waitUntilExit()
    }
}

import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// A `ledgerly-store` started from the same folder as this benchmark, stopped with SIGTERM.
final class StoreProcess {
    private let process = Process()

    init(home: LedgerlyHome, arguments: [String]) throws {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        process.executableURL = folder.appendingPathComponent("ledgerly-store")
        process.arguments = ["--home", home.root.path] + arguments
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let context = try ZMQContext()
        let probe = RequestClient(service: "ledgerly-store", endpoint: home.storeCommandEndpoint, context: context, timeoutMilliseconds: 200, attempts: 1)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if (try? probe.call(StatusRequest())) != nil { return }
            probe.close()
        }
        throw BenchmarkError.storeDidNotStart(seconds: 20)
    }

    func terminate() {
        process.terminate()
        process.waitUntilExit()
    }
}

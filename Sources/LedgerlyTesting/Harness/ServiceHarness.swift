import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Synchronization
import ZeroMQ

/// Starts the real Ledgerly executables on a temporary home and talks to them over their real
/// sockets. Every process it starts is killed when the harness is released. Shared by every test
/// target that needs running services (end-to-end and CLI tests), so they start them one way.
public final class ServiceHarness: @unchecked Sendable {
    // @unchecked: the process table is guarded by `lock`; everything else is immutable.
    /// The services' names and endpoints come from the code under test, so the two cannot drift.
    public typealias ServiceName = LedgerlyService

    public struct CommandResult: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    public let home: LedgerlyHome
    public let context: ZMQContext
    private let lock = NSLock()
    private var processes: [ServiceName: Process] = [:]

    /// The folder holding the built executables: `$LEDGERLY_BIN_DIR`, else the test binary's own folder.
    public static let binaryDirectory: URL = {
        if let path = ProcessInfo.processInfo.environment["LEDGERLY_BIN_DIR"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent()
    }()

    public init() throws {
        let root = URL(fileURLWithPath: "/tmp").appendingPathComponent("lt-" + String(UUID().uuidString.prefix(8)).lowercased())
        home = LedgerlyHome(root: root)
        try home.prepare()
        context = try ZMQContext()
        // No providers unless a test configures some: the standard configuration would reach for
        // the ECB over the internet (there is none here) and add provider reports to the change log.
        try Data(#"{"providers": []}"#.utf8).write(to: home.root.appendingPathComponent("rates.json"))
    }

    deinit {
        for process in processes.values where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: home.root)
    }

    public func logURL(_ service: ServiceName) -> URL { home.logDirectory.appendingPathComponent("\(service.rawValue).log") }

    public func log(_ service: ServiceName) -> String { (try? String(contentsOf: logURL(service), encoding: .utf8)) ?? "" }

    /// Starts a service (appending to its log) and waits until it answers `status`.
    public func start(_ service: ServiceName, extraArguments: [String] = []) throws {
        let process = Process()
        process.executableURL = Self.binaryDirectory.appendingPathComponent(service.rawValue)
        process.arguments = ["--home", home.root.path] + extraArguments
        if !FileManager.default.fileExists(atPath: logURL(service).path) {
            _ = FileManager.default.createFile(atPath: logURL(service).path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logURL(service))
        defer { try? log.close() }
        log.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = log
        try process.run()
        lock.withLock { processes[service] = process }
        try waitUntilAnswering(service)
    }

    public func startAll() throws {
        for service in ServiceName.allCases { try start(service) }
    }

    /// Sends a signal and waits for the process to exit.
    public func stop(_ service: ServiceName, signal: Int32 = SIGTERM) {
        guard let process = lock.withLock({ processes.removeValue(forKey: service) }) else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    public func pid(_ service: ServiceName) -> Int32? { lock.withLock { processes[service]?.processIdentifier } }

    public func endpoint(_ service: ServiceName) -> String { service.commandEndpoint(in: home) }

    public func client(_ service: ServiceName = .store, timeoutMilliseconds: Int = 2_000, attempts: Int = 3) -> RequestClient {
        RequestClient(service: service.rawValue, endpoint: endpoint(service), context: context, timeoutMilliseconds: timeoutMilliseconds, attempts: attempts)
    }

    public func status(_ service: ServiceName) -> StatusReply? {
        let client = client(service, timeoutMilliseconds: 300, attempts: 1)
        defer { client.close() }
        return try? client.call(StatusRequest())
    }

    /// Polls `status` until the service answers, up to `seconds`.
    public func waitUntilAnswering(_ service: ServiceName, seconds: Double = 20) throws {
        try waitFor("\(service.rawValue) to answer status", seconds: seconds) { self.status(service) != nil }
    }

    /// Polls `condition` every 50 ms until it holds or `seconds` pass.
    public func waitFor(_ what: String, seconds: Double = 20, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(50_000)
        }
        throw HarnessError.timedOut(what)
    }

    /// Runs the CLI with this home and returns its exit status and output.
    @discardableResult
    public func cli(_ arguments: String...) throws -> CommandResult { try cli(arguments) }

    /// Runs in the home folder, so a file the command writes by mistake stays in the temporary home.
    /// `environment`: variables set for this command only (a locale, say).
    public func cli(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> CommandResult {
        let process = Process()
        process.executableURL = Self.binaryDirectory.appendingPathComponent("ledgerly")
        process.arguments = arguments
        process.currentDirectoryURL = home.root
        var environment = ProcessInfo.processInfo.environment
        environment["LEDGERLY_HOME"] = home.root.path
        environment["NO_COLOR"] = "1"
        // Tests start their services themselves: a command finding none refuses as before
        // instead of starting some the harness would not stop (D618). Pass
        // `LEDGERLY_NO_START: ""` to let it start them.
        environment["LEDGERLY_NO_START"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// Completes setup (EUR, official, sync off) through the CLI.
    public func setUp() throws {
        let result = try cli("setup", "--base-currency", "EUR", "--exchange-mode", "official", "--sync", "off", "--yes")
        guard result.status == 0 else { throw HarnessError.commandFailed("setup", result.stderr) }
    }
}

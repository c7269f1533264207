import Foundation
import LedgerlyProtocol
import Logging
import Synchronization

/// Runs a program for every alert (`notify-send`, a mail script …).
///
/// - stdin: the alert as one line of JSON (`MessageCoding`, the protocol's `AlertRecord`) and a
///   newline. It is a private temporary file rather than a pipe, so a hook that does not read it
///   can neither block the service nor kill it with SIGPIPE.
/// - for a change to transactions (a hook with `"events": ["transactions"]`): the change as the
///   store published it (`ChangeEvent`) on stdin, and `LEDGERLY_EVENT` (`tx.created` …),
///   `LEDGERLY_EVENT_KEY` (`<epoch>:<seq>`) and `LEDGERLY_TRANSACTION_ID` in the environment.
/// - environment: the service's own, plus `LEDGERLY_ALERT_ID`, `LEDGERLY_ALERT_KIND`,
///   `LEDGERLY_ALERT_KEY`, `LEDGERLY_ALERT_SUBJECT` and `LEDGERLY_ALERT_MESSAGE`, for programs
///   that take text as arguments: `CommandHook.notifySendExample`,
///   `["/bin/sh", "-c", "exec notify-send -- \"$LEDGERLY_ALERT_SUBJECT\" \"$LEDGERLY_ALERT_MESSAGE\""]`.
/// - stdout is discarded; the end of stderr is logged when the hook fails.
/// - after `timeoutSeconds` the hook's process group gets SIGTERM, and SIGKILL 2 seconds later,
///   so a hook that hangs (or a child it started) never piles up.
/// - signals start at their defaults, not blocked or ignored as in the service (see `invocation(of:)`).
///
/// A hook's success is its exit status 0. Failures are logged, never thrown, and not retried.
public struct CommandHookSink: AlertSink {
    /// How one run ended.
    public enum Outcome: Hashable, Sendable {
        case succeeded
        /// Exited with a non-zero status.
        case failed(status: Int32, stderrTail: String)
        /// Killed by a signal it did not get from us.
        case killed(signal: Int32, stderrTail: String)
        /// Still running after the timeout, so it was terminated.
        case timedOut(stderrTail: String)
        case couldNotStart(reason: String)
        /// The task running it was cancelled (the service is stopping); the hook was terminated.
        case cancelled
    }

    /// How much of stderr is kept for the log.
    static let stderrTailBytes = 2_000
    /// Between SIGTERM and SIGKILL.
    static let killGrace: Duration = .seconds(2)

    public let hook: AlertSinksConfiguration.CommandHook
    private let logger: Logger

    public init(hook: AlertSinksConfiguration.CommandHook, logger: Logger) {
        self.hook = hook
        self.logger = logger
    }

    public var name: String { hook.name }

    public func deliver(_ alert: AlertRecord) async {
        await deliver(.alert(alert))
    }

    /// Runs the hook for an alert or a change, and logs how it ended.
    public func deliver(_ notice: SinkNotice) async {
        let outcome = await run(notice)
        var metadata: Logger.Metadata = ["hook": "\(name)", "key": "\(notice.key)"]
        switch outcome {
        case .succeeded:
            logger.debug("alert hook ran", metadata: metadata)
        case .failed(let status, let tail):
            metadata["status"] = "\(status)"
            metadata["stderr"] = "\(tail)"
            logger.warning("alert hook failed", metadata: metadata)
        case .killed(let signal, let tail):
            metadata["signal"] = "\(signal)"
            metadata["stderr"] = "\(tail)"
            logger.warning("alert hook was killed by a signal", metadata: metadata)
        case .timedOut(let tail):
            metadata["timeoutSeconds"] = "\(hook.effectiveTimeoutSeconds)"
            metadata["stderr"] = "\(tail)"
            logger.warning("alert hook timed out and was terminated", metadata: metadata)
        case .couldNotStart(let reason):
            metadata["error"] = "\(reason)"
            logger.error("alert hook could not be started", metadata: metadata)
        case .cancelled:
            logger.info("alert hook terminated: the service is stopping", metadata: metadata)
        }
    }

    /// Runs the hook once for `alert` and waits for it (at most the timeout, plus the kill grace).
    public func run(_ alert: AlertRecord) async -> Outcome {
        await run(.alert(alert))
    }

    /// Runs the hook once for an alert or a change and waits for it.
    public func run(_ notice: SinkNotice) async -> Outcome {
        guard let program = hook.command.first, !program.isEmpty else { return .couldNotStart(reason: "the command is empty") }
        let line: Data
        do { line = try notice.body() + Data("\n".utf8) } catch {
            return .couldNotStart(reason: "could not encode the delivery: \(error)")
        }

        let temporary = FileManager.default.temporaryDirectory
        let token = UUID().uuidString
        let inputURL = temporary.appendingPathComponent("ledgerly-alert-\(token).json")
        let errorURL = temporary.appendingPathComponent("ledgerly-alert-\(token).stderr")
        defer {
            try? FileManager.default.removeItem(at: inputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let input: FileHandle
        let errors: FileHandle
        do {
            guard FileManager.default.createFile(atPath: inputURL.path, contents: line, attributes: [.posixPermissions: 0o600]),
                  FileManager.default.createFile(atPath: errorURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { return .couldNotStart(reason: "cannot create temporary files in \(temporary.path)") }
            input = try FileHandle(forReadingFrom: inputURL)
            errors = try FileHandle(forWritingTo: errorURL)
        } catch {
            return .couldNotStart(reason: "cannot open temporary files in \(temporary.path): \(error.localizedDescription)")
        }

        var environment = ProcessInfo.processInfo.environment
        switch notice {
        case .alert(let alert):
            environment["LEDGERLY_ALERT_ID"] = "\(alert.id)"
            environment["LEDGERLY_ALERT_KIND"] = alert.kind.rawValue
            environment["LEDGERLY_ALERT_KEY"] = alert.key
            environment["LEDGERLY_ALERT_SUBJECT"] = alert.subject
            environment["LEDGERLY_ALERT_MESSAGE"] = alert.message
        case .transaction(let change):
            environment["LEDGERLY_EVENT"] = change.type
            environment["LEDGERLY_EVENT_KEY"] = notice.key
            environment["LEDGERLY_TRANSACTION_ID"] = change.id
        }
        let (executable, arguments) = await Self.invocation(of: hook.command)
        let timeout = Duration.milliseconds(Int64((hook.effectiveTimeoutSeconds * 1_000).rounded()))
        let ending = await Self.execute(executable, arguments, environment: environment, input: input, errors: errors, timeout: timeout)
        let tail = Self.tail(of: errorURL)
        switch ending {
        case .exited(0): return .succeeded
        case .exited(let status): return .failed(status: status, stderrTail: tail)
        case .signalled(let signal): return .killed(signal: signal, stderrTail: tail)
        case .timedOut: return .timedOut(stderrTail: tail)
        case .cancelled: return .cancelled
        case .couldNotStart(let reason): return .couldNotStart(reason: "\(program): \(reason)")
        }
    }

    // MARK: Processes

    /// How a process ended.
    enum Ending: Hashable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case cancelled
        case couldNotStart(String)
    }

    /// Starts a process with `input` as stdin, `errors` as stderr (both closed here once it runs)
    /// and stdout discarded, and waits for it: at most `timeout`, then its process group gets
    /// SIGTERM, and SIGKILL `killGrace` later; the same when the task is cancelled.
    static func execute(_ executable: String, _ arguments: [String], environment: [String: String]?, input: FileHandle, errors: FileHandle, timeout: Duration) async -> Ending {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let (exits, exited) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            exited.yield()
            exited.finish()
        }
        do {
            defer {
                // The child has its own copies now (or there is no child).
                try? input.close()
                try? errors.close()
            }
            try process.run()
        } catch {
            return .couldNotStart(error.localizedDescription)
        }

        // Foundation starts the child in a process group of its own: signal the whole group, so
        // `sh -c 'sleep 60'` does not leave the sleep behind.
        let pid = process.processIdentifier
        let target = getpgid(pid) == pid ? -pid : pid
        let timer = Task<Bool, Never> {
            do { try await Task.sleep(for: timeout) } catch { return false }
            kill(target, SIGTERM)
            try? await Task.sleep(for: killGrace)
            if !Task.isCancelled { kill(target, SIGKILL) }
            return true
        }
        await withTaskCancellationHandler {
            for await _ in exits {}
        } onCancel: {
            kill(target, SIGTERM)
            Task.detached {
                try? await Task.sleep(for: killGrace)
                if kill(pid, 0) == 0 { kill(target, SIGKILL) }
            }
        }
        timer.cancel()
        let timedOut = await timer.value
        if Task.isCancelled { return .cancelled }
        if timedOut { return .timedOut }
        switch process.terminationReason {
        case .exit: return .exited(process.terminationStatus)
        case .uncaughtSignal: return .signalled(process.terminationStatus)
        @unknown default: return .exited(process.terminationStatus)
        }
    }

    /// What to execute for a configured command.
    ///
    /// Foundation's `Process` passes on the spawning thread's signal mask (a Swift concurrency
    /// thread blocks nearly every signal) and the signals the service ignores (the service
    /// lifecycle ignores SIGTERM and SIGINT to handle them itself). A hook started like that
    /// could not be interrupted, and neither could the programs it starts. So where GNU `env`
    /// has `--default-signal` (coreutils 8.31 and later, which also unblocks), the hook is started
    /// through it, with every signal back to its default; elsewhere (macOS, BusyBox) the hook
    /// keeps what it inherits, and a timeout still ends it with SIGKILL after the SIGTERM.
    static func invocation(of command: [String]) async -> (executable: String, arguments: [String]) {
        if await envResetsSignals() { return (env, ["--default-signal", "--"] + command) }
        if let program = command.first, program.hasPrefix("/") { return (program, Array(command.dropFirst())) }
        return (env, command)
    }

    private static let env = "/usr/bin/env"
    private static let envProbe = Mutex<Bool?>(nil)

    /// Whether hooks start with every signal at its default (through `env --default-signal`,
    /// see `invocation(of:)`); found out once.
    public static func envResetsSignals() async -> Bool {
        if let known = envProbe.withLock({ $0 }) { return known }
        let works: Bool
        do {
            let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/null"))
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
            works = await execute(env, ["--default-signal", "--", "true"], environment: nil, input: input, errors: errors, timeout: .seconds(5)) == .exited(0)
        } catch {
            works = false
        }
        envProbe.withLock { $0 = works }
        return works
    }

    /// The last `stderrTailBytes` of the hook's stderr, trimmed.
    private static func tail(of url: URL) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return "" }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > UInt64(stderrTailBytes) ? size - UInt64(stderrTailBytes) : 0)
        let data = (try? handle.readToEnd()) ?? Data()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

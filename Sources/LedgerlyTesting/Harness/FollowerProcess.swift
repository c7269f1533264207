import Foundation
import LedgerlyRuntime
import Synchronization

/// A long-running CLI command (`ledgerly alerts --follow`) in its own process, whose output lines
/// are collected as they come, as a person watching a terminal would see them.
public final class FollowerProcess: Sendable {
    /// Complete lines so far and the unfinished rest, filled from the pipe's handler thread.
    final class Output: Sendable {
        private let state = Mutex<(lines: [String], rest: String)>(([], ""))

        func append(_ data: Data) {
            state.withLock { state in
                var parts = (state.rest + String(decoding: data, as: UTF8.self)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                state.rest = parts.removeLast()
                state.lines += parts
            }
        }

        var lines: [String] { state.withLock { $0.lines } }
    }

    private let process: Process
    private let output = Output()
    /// What the command wrote to standard error: the reason, when it stops early.
    private let errors = Output()

    public init(harness: ServiceHarness, arguments: [String]) throws {
        let process = Process()
        process.executableURL = ServiceHarness.binaryDirectory.appendingPathComponent("ledgerly")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LEDGERLY_HOME"] = harness.home.root.path
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let pipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorPipe
        for (pipe, sink) in [(pipe, output), (errorPipe, errors)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                // Empty means the other end closed: stop listening, or the handler is called forever.
                if data.isEmpty { handle.readabilityHandler = nil } else { sink.append(data) }
            }
        }
        self.process = process
        try process.run()
    }

    /// Complete lines printed so far.
    public var lines: [String] { output.lines }

    /// Waits until the command has printed `count` lines; fails at once, with its standard
    /// error, when the command has exited instead.
    public func waitForLines(_ count: Int, _ what: String, harness: ServiceHarness) throws {
        try harness.waitFor(what) {
            if lines.count >= count { return true }
            guard process.isRunning else {
                throw HarnessError.commandFailed("the follower (exit \(process.terminationStatus)) before \(what)", errors.lines.joined(separator: "\n"))
            }
            return false
        }
    }

    /// SIGKILL: a process started from the test runner inherits its blocked signals, so SIGTERM
    /// would wait forever.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

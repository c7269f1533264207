import Foundation
import LedgerlyAlerts
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import Testing

@Suite(.timeLimit(.minutes(2))) struct CommandHookSinkTests {
    private func scratch() throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("lgh-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Alive and not a zombie (an orphan waits for the container's init to reap it).
    private func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else { return true }
        return !stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    private func hook(_ script: String, timeout: Double? = nil) -> AlertSinksConfiguration.CommandHook {
        .init(name: "test", command: ["/bin/sh", "-c", script], timeoutSeconds: timeout)
    }

    @Test func hookGetsTheAlertJSONOnStdin() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("alert.json")
        let key = folder.appendingPathComponent("key.txt")
        let sink = CommandHookSink(hook: hook("cat > '\(output.path)'; printf %s \"$LEDGERLY_ALERT_KEY\" > '\(key.path)'"), logger: LogCapture().logger)
        let alert = sampleAlert()
        #expect(await sink.run(alert) == .succeeded)
        #expect(try Data(contentsOf: output) == (try MessageCoding.encode(alert)) + Data("\n".utf8))
        #expect(try String(contentsOf: key, encoding: .utf8) == alert.key)
    }

    /// The documented notify-send hook hands `notify-send` the alert's subject and message as its
    /// two arguments, exactly, quotes and `$` included (a stand-in records what it was given).
    @Test func theNotifySendExampleShowsTheAlertsMessage() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appendingPathComponent("notify-send")
        let record = folder.appendingPathComponent("arguments")
        try Data("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(record.path)'\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        var command = AlertSinksConfiguration.CommandHook.notifySendExample
        command[2] = command[2].replacingOccurrences(of: "exec notify-send", with: "exec '\(fake.path)'")
        var alert = sampleAlert()
        alert.message = #"Groceries: 80 % of "November" spent ($160.00 of $200.00)"#
        let sink = CommandHookSink(hook: .init(name: "notify", command: command), logger: LogCapture().logger)
        #expect(await sink.run(alert) == .succeeded)
        #expect(try String(contentsOf: record, encoding: .utf8) == "--\nGroceries\n\(alert.message)\n")
    }

    @Test func dispatcherRunsHooksInTheBackground() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let output = folder.appendingPathComponent("alerts.jsonl")
        let configuration = AlertSinksConfiguration(commandHooks: [hook("cat >> '\(output.path)'")])
        let dispatcher = AlertDispatcher(home: home, configuration: configuration, logger: LogCapture().logger)
        let running = Task { await dispatcher.run() }
        await dispatcher.dispatch(sampleAlert(id: 1))
        await dispatcher.dispatch(sampleAlert(id: 2))
        let expected = try [1, 2].map { try MessageCoding.encode(sampleAlert(id: Int64($0))) + Data("\n".utf8) }.reduce(Data(), +)
        #expect(await eventually { (try? Data(contentsOf: output)) == expected })
        running.cancel()
        await running.value
        // Hooks are not persisted: nothing in the outbox.
        #expect(AlertOutbox(home: home).load().entries.isEmpty)
    }

    @Test func hangingHookIsTerminatedAfterItsTimeout() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("sleep.pid")
        let log = LogCapture()
        let sink = CommandHookSink(hook: hook("sleep 60 & echo $! > '\(pidFile.path)'; wait", timeout: 0.5), logger: log.logger)
        let clock = ContinuousClock()
        let started = clock.now
        await sink.deliver(sampleAlert())
        #expect(clock.now - started < .seconds(20))
        #expect(log.lines.contains { $0.level == .warning && $0.message.contains("timed out") && $0.metadata["hook"] == "test" })
        // The hook's child went with it (the whole process group is signalled).
        let pid = try #require(Int32(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await eventually(timeout: .seconds(10)) { !isRunning(pid) })
    }

    @Test func hookIgnoringSIGTERMIsKilled() async throws {
        let sink = CommandHookSink(hook: hook("trap '' TERM; sleep 60", timeout: 0.3), logger: LogCapture().logger)
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = await sink.run(sampleAlert())
        #expect(outcome == .timedOut(stderrTail: ""))
        #expect(clock.now - started < .seconds(20))
    }

    @Test func failureLogsExitStatusAndStderrTail() async throws {
        let log = LogCapture()
        let sink = CommandHookSink(hook: hook("cat > /dev/null; echo 'first line' >&2; echo 'mail: no route to host' >&2; exit 3"), logger: log.logger)
        #expect(await sink.run(sampleAlert()) == .failed(status: 3, stderrTail: "first line\nmail: no route to host"))
        await sink.deliver(sampleAlert())
        let line = try #require(log.lines.first { $0.message == "alert hook failed" })
        #expect(line.level == .warning)
        #expect(line.metadata["status"] == "3")
        #expect(line.metadata["stderr"]?.hasSuffix("mail: no route to host") == true)
        #expect(line.metadata["key"] == sampleAlert().key)
    }

    @Test func hookThatDoesNotReadStdinIsFine() async throws {
        let sink = CommandHookSink(hook: hook("exit 0"), logger: LogCapture().logger)
        // A large alert: with a pipe, an unread stdin could block or raise SIGPIPE.
        var alert = sampleAlert()
        alert.data = .string(String(repeating: "x", count: 1 << 20))
        #expect(await sink.run(alert) == .succeeded)
    }

    @Test func missingProgramIsReported() async throws {
        // Started directly it cannot start; started through `env` (see `CommandHookSink`) env says 127.
        let absolute = CommandHookSink(hook: .init(name: "gone", command: ["/nonexistent/notify"]), logger: LogCapture().logger)
        switch await absolute.run(sampleAlert()) {
        case .couldNotStart(let reason): #expect(reason.contains("/nonexistent/notify"))
        case .failed(let status, let tail): #expect(status == 127 && tail.contains("/nonexistent/notify"))
        default: Issue.record("expected a failure")
        }
        let bare = CommandHookSink(hook: .init(name: "gone", command: ["ledgerly-no-such-program"]), logger: LogCapture().logger)
        guard case .failed(let status, let tail) = await bare.run(sampleAlert()) else {
            Issue.record("expected a failure from env")
            return
        }
        #expect(status == 127)
        #expect(tail.contains("ledgerly-no-such-program"))
    }

    /// A Swift concurrency thread blocks nearly every signal, and `Process` would pass that mask on.
    /// (`exec grep`, not the shell's own status: dash blocks everything while it waits for a child.)
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func hookStartsWithNoSignalBlocked() async throws {
        try #require(await CommandHookSink.envResetsSignals(), "this system's env has no --default-signal")
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("status")
        let sink = CommandHookSink(hook: hook("exec grep '^SigBlk' /proc/self/status > '\(output.path)'"), logger: LogCapture().logger)
        #expect(await sink.run(sampleAlert()) == .succeeded)
        let line = try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasSuffix("0000000000000000"), "\(line)")
    }
}

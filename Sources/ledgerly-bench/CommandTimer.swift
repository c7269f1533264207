import Foundation
import LedgerlyRuntime

/// Runs a command as a user would (a new process, output written) and times it from process
/// start to exit: what a person waits for, start-up included.
struct CommandTimer {
    struct Timings {
        let all: [Duration]
        var median: Duration { all.sorted()[all.count / 2] }
        var min: Duration { all.min()! }
        var max: Duration { all.max()! }
    }

    let home: LedgerlyHome

    /// Output goes to /dev/null (the terminal's drawing time is not the program's). A run still
    /// going after `limit` is killed and the result is nil: the command takes longer than that.
    func time(_ executable: String, _ arguments: [String], runs: Int, limit: Duration? = nil) throws -> Timings? {
        var all: [Duration] = []
        for _ in 0..<max(1, runs) {
            let started = ContinuousClock.now
            guard let status = try run(executable, arguments, output: FileHandle(forWritingAtPath: "/dev/null")!, limit: limit) else { return nil }
            all.append(ContinuousClock.now - started)
            guard status == 0 else { throw BenchmarkError.commandFailed("\(executable) \(arguments.joined(separator: " ")) exited with \(status)") }
        }
        return Timings(all: all)
    }

    /// The command's peak RSS in megabytes, from one untimed run under GNU time (`%M`); nil when
    /// /usr/bin/time is missing. Not from this process's own `wait4`: posix_spawn starts the child
    /// in this process's memory (CLONE_VM), and the kernel carries that memory's high-water mark
    /// into the child's `ru_maxrss` at exec, so the figure would be the benchmark's own peak.
    /// GNU time forks its child from a small process, whose mark is a megabyte or two.
    func peakMegabytes(_ executable: String, _ arguments: [String]) throws -> Double? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
        return try timeOnce(executable, arguments).peakMegabytes
    }

    /// One timed run of a long command (an export, a restore) with its peak RSS from GNU time in
    /// the same run (nil when /usr/bin/time is missing: then it runs alone). GNU time's own start
    /// adds about a millisecond to a command that takes seconds.
    func timeOnce(_ executable: String, _ arguments: [String]) throws -> (time: Duration, peakMegabytes: Double?) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            return (try time(executable, arguments, runs: 1)!.median, nil)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lbench-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let started = ContinuousClock.now
        let status = try run("/usr/bin/time", ["-f", "%M", "-o", file.path, executable] + arguments, output: FileHandle(forWritingAtPath: "/dev/null")!)
        let elapsed = ContinuousClock.now - started
        guard status == 0, let kilobytes = Double(try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchmarkError.commandFailed("\(executable) \(arguments.joined(separator: " ")) exited with \(status ?? -1)")
        }
        return (elapsed, kilobytes / 1_024)
    }

    /// Runs once and returns what it printed.
    func output(_ executable: String, _ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lbench-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let status = try run(executable, arguments, output: try FileHandle(forWritingTo: file)) ?? -1
        let text = try String(contentsOf: file, encoding: .utf8)
        guard status == 0 else { throw BenchmarkError.commandFailed("\(executable) \(arguments.joined(separator: " ")) exited with \(status): \(text.prefix(500))") }
        return text
    }

    /// posix_spawn and waitpid rather than Foundation's `Process`: on Linux its
    /// `waitUntilExit` notices an exit only every 50 ms, which would round every timing up.
    private func run(_ executable: String, _ arguments: [String], output: FileHandle, limit: Duration? = nil) throws -> Int32? {
        var environment = ProcessInfo.processInfo.environment
        environment["LEDGERLY_HOME"] = home.root.path
        // hledger refuses non-ASCII text (a wallet named "Café") unless the locale is UTF-8.
        environment["LC_ALL"] = "C.UTF-8"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output.fileDescriptor, STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        try? output.close()
        guard spawned == 0 else { throw BenchmarkError.commandFailed("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        if let limit {
            // Polled every 10 ms: precise enough for commands that take seconds.
            let deadline = ContinuousClock.now + limit
            while waitpid(pid, &status, WNOHANG) == 0 {
                guard ContinuousClock.now < deadline else {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                    return nil
                }
                usleep(10_000)
            }
        } else {
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

import FoundationEssentials
import Glibc
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// Starts the services of a home whose store is not running, so that a command typed right after
/// `make install` works with nothing else run (D615). The store's instance lock says whether it
/// runs: free (or missing) means no store, whatever socket file a `kill -9` left (D616).
///
/// Started through `systemctl --user` when the Ledgerly user units are installed, the home is
/// the default one the units serve and the user's systemd answers; else each program beside this
/// `ledgerly` (its own path, never `PATH`) is spawned detached: a session of its own, standard
/// input from /dev/null, output and errors appended to `<log folder>/<service>.log` as under
/// supervisord. The store, rates and alerts start, and sync when this home has joined a hub (D617).
enum ServiceStarter {
    /// True while a command prints JSON: no progress line then, even on a terminal.
    @TaskLocal static var quiet = false

    /// The variable that refuses to start anything, as `--no-start` does, when set to anything
    /// but the empty string (D618).
    static let refuseVariable = "LEDGERLY_NO_START"

    /// Makes sure the store of `home` runs: returns at once when its lock is held (or cannot be
    /// read: then the request itself says what is wrong), else starts the services and waits
    /// until the store answers, or refuses when starting is turned off.
    /// `explicitHome`: the `--home` typed, passed on to the services.
    static func ensureStore(home: LedgerlyHome, explicitHome: String?, noStart: Bool, context: ZMQContext) throws(CLIFailure) {
        let lockPath = LedgerlyService.store.lockPath(in: home)
        let endpoint = home.storeCommandEndpoint
        let socketPath = String(endpoint.dropFirst("ipc://".count))
        guard InstanceLock.isHeld(path: lockPath) == false else {
            // Held: a store runs, or one that another command just started takes the lock before
            // it listens; its socket shows when it does (D626). Without the wait, that command's
            // request found no socket and failed.
            let deadline = ContinuousClock.now + .seconds(startTimeout)
            while !FileManager.default.fileExists(atPath: socketPath), InstanceLock.isHeld(path: lockPath) == true, ContinuousClock.now < deadline {
                usleep(20_000)
            }
            return
        }
        let refusedByVariable = getenv(refuseVariable).map { $0.pointee != 0 } ?? false
        // Only the installed `ledgerly` starts anything: run in-process (a test runner), the
        // programs beside this binary are not Ledgerly's.
        let isLedgerly = URL(fileURLWithPath: OwnExecutable.path).lastPathComponent == "ledgerly"
        if noStart || refusedByVariable || !isLedgerly {
            let message = FileManager.default.fileExists(atPath: socketPath)
                ? "ledgerly-store is not running (its lock \(lockPath) is free; the socket \(socketPath) was left by a store that stopped without removing it)"
                : ClientError.notRunning(service: LedgerlyService.store.name, endpoint: endpoint).description
            let how = noStart ? " (or drop --no-start to let ledgerly start them)" : refusedByVariable ? " (or unset \(refuseVariable) to let ledgerly start them)" : ""
            throw CLIFailure(message: message, status: .unavailable, hint: "Start Ledgerly: \(StartHint.text)\(how).")
        }
        try start(home: home, explicitHome: explicitHome, context: context)
    }

    /// Starts what is not running and waits for the store.
    private static func start(home: LedgerlyHome, explicitHome: String?, context: ZMQContext) throws(CLIFailure) {
        var services: [LedgerlyService] = [.store, .rates, .alerts]
        // Sync has nothing to do until `ledgerly sync` joined a hub (its hub.json, D617).
        if FileManager.default.fileExists(atPath: home.root.appendingPathComponent("sync/hub.json").path) { services.append(.sync) }
        services.removeAll { InstanceLock.isHeld(path: $0.lockPath(in: home)) == true }
        let output = CommandOutput.current
        let progress = output.errorIsTerminal && !quiet
        let names = services.map(\.name).joined(separator: ", ")
        if progress { output.writeError("ledgerly: starting \(names) for \(home.root.path)…") }
        var storePid: pid_t?
        if explicitHome == nil, getenv("LEDGERLY_HOME") == nil, systemdKnowsTheStore() {
            let run = try ChildProcess.run("/usr/bin/env", ["systemctl", "--user", "start"] + services.map { "\($0.name).service" }, capture: true)
            guard run.status == 0 else {
                if progress { output.writeError("\n") }
                throw CLIFailure(message: "systemctl --user start \(names) failed: \(String(decoding: run.errors, as: UTF8.self).trimmingWhitespaceAndNewlines())",
                                 status: .unavailable, hint: "See `journalctl --user -u ledgerly-store`.")
            }
        } else {
            try makeLogFolder(home)
            for service in services {
                let pid = try spawnDetached(service, home: home, explicitHome: explicitHome)
                if service == .store { storePid = pid }
            }
        }
        let log = home.logDirectory.appendingPathComponent("ledgerly-store.log").path
        let seconds = startTimeout
        let deadline = ContinuousClock.now + .seconds(seconds)
        let client = RequestClient(.store, home: home, context: context, timing: .statusProbe(timeoutMilliseconds: 500))
        defer { client.close() }
        while true {
            if (try? client.call(StatusRequest())) != nil {
                if progress { output.writeError("\r\u{1B}[K") }
                return
            }
            var status: Int32 = 0
            if let pid = storePid, waitpid(pid, &status, WNOHANG) == pid {
                // Another command's store took the lock first (two commands started the services
                // at once): this one left, and that one is waited for (D626).
                if InstanceLock.isHeld(path: LedgerlyService.store.lockPath(in: home)) == true {
                    storePid = nil
                    continue
                }
                if progress { output.writeError("\n") }
                throw CLIFailure(message: "ledgerly-store exited as soon as ledgerly started it", status: .unavailable, hint: "Its log says why: \(log).")
            }
            if ContinuousClock.now >= deadline {
                if progress { output.writeError("\n") }
                throw CLIFailure(message: "ledgerly-store did not answer within \(seconds) s of being started", status: .unavailable,
                                 hint: "See \(storePid == nil ? "`journalctl --user -u ledgerly-store`" : log); LEDGERLY_START_TIMEOUT sets the wait in seconds.")
            }
            usleep(50_000)
        }
    }

    /// How long a command waits for a store it started, or one starting (LEDGERLY_START_TIMEOUT,
    /// seconds).
    private static var startTimeout: Int {
        getenv("LEDGERLY_START_TIMEOUT").flatMap { Int(String(cString: $0)) } ?? 30
    }

    /// Whether the user's systemd manager answers and knows the store's unit (`systemctl --user
    /// cat`): units copied where systemd does not look, or no user manager (a container, plain
    /// ssh), mean spawning the programs instead.
    private static func systemdKnowsTheStore() -> Bool {
        guard StartHint.systemdUnitsInstalled,
              let run = try? ChildProcess.run("/usr/bin/env", ["systemctl", "--user", "cat", "ledgerly-store.service"], capture: true) else { return false }
        return run.status == 0
    }

    /// The home and its log folder, owner-only like every folder of a home.
    private static func makeLogFolder(_ home: LedgerlyHome) throws(CLIFailure) {
        do {
            try home.checkOwner()
        } catch {
            throw CLIFailure(message: error.description, status: .refused)
        }
        do {
            try FileManager.default.createDirectory(at: home.root.deletingLastPathComponent(), withIntermediateDirectories: true)
            for folder in [home.root, home.stateDirectory, home.logDirectory] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
            }
        } catch {
            throw CLIFailure(message: "cannot make the log folder \(home.logDirectory.path): \(error)", status: .failure)
        }
    }

    /// Spawns `service` (the program beside `ledgerly`) in a session of its own, its output
    /// appended to its log; returns its pid.
    private static func spawnDetached(_ service: LedgerlyService, home: LedgerlyHome, explicitHome: String?) throws(CLIFailure) -> pid_t {
        let program = OwnExecutable.sibling(service.name)
        guard access(program, X_OK) == 0 else {
            throw CLIFailure(message: "cannot start \(service.name): \(program) is missing (the services are installed beside ledgerly)", status: .unavailable,
                             hint: "Start Ledgerly: \(StartHint.text).")
        }
        let log = home.logDirectory.appendingPathComponent("\(service.name).log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own (glibc's POSIX_SPAWN_SETSID, 0x80, a macro Swift does not import):
        // the terminal's hang-up or Ctrl-C does not reach it.
        posix_spawnattr_setflags(&attributes, 0x80)
        let arguments = [program] + (explicitHome == nil ? [] : ["--home", home.root.path])
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw CLIFailure(message: "cannot start \(program): \(String(cString: strerror(spawned)))", status: .failure)
        }
        return pid
    }
}

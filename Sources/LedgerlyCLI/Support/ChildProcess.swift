import FoundationEssentials
import Glibc
import LedgerlyCore
import LedgerlyFiles

/// Runs another program and waits for it (`posix_spawn`, `waitpid`): what the CLI used
/// Foundation's `Process` for (`config check` running each service's `--check-config`, `restore`
/// running the store). `Process` is in the full Foundation, which the CLI no longer links (D380).
struct ChildProcess {
    /// How it ended: its exit status, or 128 + the signal that ended it (as a shell reports it).
    let status: Int32
    /// Its standard output and error when `capture` was asked; empty otherwise.
    let output: Data
    let errors: Data

    /// Runs `program` with `arguments` and this process's environment. With `capture`, its
    /// standard output and error are read here (each to its end, output first: the programs run
    /// this way print a line or two); without, it writes to this process's own streams.
    static func run(_ program: String, _ arguments: [String], capture: Bool) throws(CLIFailure) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        if capture {
            guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else {
                throw CLIFailure(message: "cannot run \(program): \(String(cString: strerror(errno)))", status: .failure)
            }
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDOUT_FILENO)
            posix_spawn_file_actions_adddup2(&actions, errorPipe[1], STDERR_FILENO)
            for descriptor in outputPipe + errorPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        if capture { close(outputPipe[1]); close(errorPipe[1]) }
        guard spawned == 0 else {
            if capture { close(outputPipe[0]); close(errorPipe[0]) }
            throw CLIFailure(message: "cannot run \(program): \(String(cString: strerror(spawned)))", status: .failure)
        }
        var output = Data(), errors = Data()
        var readFailure: PosixFileError?
        if capture {
            // Both adopted before either is read, so each is closed whatever happens.
            let outputFile = PosixFile.adopting(outputPipe[0], name: "the output of \(program)")
            let errorFile = PosixFile.adopting(errorPipe[0], name: "the errors of \(program)")
            do {
                output = try outputFile.readToEnd()
                errors = try errorFile.readToEnd()
            } catch {
                readFailure = error
            }
        }
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
        // Reported once the child is reaped, so that none is left behind.
        if let readFailure { throw CLIFailure(message: readFailure.description, status: .failure) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift does not import.
        let signal = waitStatus & 0x7f
        let status = signal == 0 ? (waitStatus >> 8) & 0xff : 128 + signal
        return ChildProcess(status: status, output: output, errors: errors)
    }
}

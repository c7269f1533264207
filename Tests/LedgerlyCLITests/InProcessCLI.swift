import Foundation
import LedgerlyCLI
import LedgerlyRuntime
import LedgerlyTesting
import Synchronization

/// Runs `ledgerly` command lines in this process, through `LedgerlyCommand.run(arguments:output:)`,
/// against a harness's home, and keeps what each printed: the seam the binary itself runs through,
/// so a command is tested without a process of its own.
struct InProcessCLI {
    let harness: ServiceHarness

    /// Runs `arguments` with `--home` added (every subcommand takes it; the root command does not).
    func callAsFunction(_ arguments: String..., home: Bool = true) -> ServiceHarness.CommandResult {
        run(arguments + (home ? ["--home", harness.home.root.path] : []))
    }

    func run(_ arguments: [String]) -> ServiceHarness.CommandResult {
        let output = Mutex(""), errors = Mutex("")
        let status = LedgerlyCommand.run(
            arguments: arguments,
            output: CommandOutput(
                standardOutput: { text in output.withLock { $0 += text } },
                standardError: { text in errors.withLock { $0 += text } }))
        return ServiceHarness.CommandResult(status: status, stdout: output.withLock { $0 }, stderr: errors.withLock { $0 })
    }
}

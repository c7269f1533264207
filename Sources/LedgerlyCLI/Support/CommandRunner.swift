import ArgumentParser
import FoundationEssentials

/// Runs a command body, printing a failure as `error: …` (plus a hint) on stderr and exiting
/// with its documented status, so every command reports errors the same way.
enum CommandRunner {
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as CLIFailure {
            let style = TerminalStyle.standardError
            var text = style.red("error: ") + failure.message + "\n"
            if let hint = failure.hint { text += style.dim("hint: ") + hint + "\n" }
            CommandOutput.current.writeError(text)
            throw ExitCode(failure.status.rawValue)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            // Anything else is unexpected (encoding, messaging setup): exit 4, never 1 ("refused").
            CommandOutput.current.writeError(TerminalStyle.standardError.red("error: ") + "\(error)\n")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
    }
}

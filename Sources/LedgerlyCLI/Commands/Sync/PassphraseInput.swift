import FoundationEssentials
import Glibc
import LedgerlyRuntime

/// The sync passphrase: the first line of a file, or typed at the terminal without echo. Never
/// taken from an option's value, which would leave it in the shell's history and `ps`.
enum PassphraseInput {
    static func read(file: String?, prompt: String = "Sync passphrase (every device needs the same one): ") throws -> String {
        if let file {
            // One reader for every program that takes a passphrase file (D288's rules live there).
            do {
                return try PassphraseFile.read(path: file)
            } catch .missing {
                throw CLIFailure(message: "the passphrase file \(file) does not exist", status: .refused)
            } catch {
                throw CLIFailure(message: error.description, status: .refused)
            }
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIFailure(message: "no terminal to ask for the sync passphrase: give --passphrase-file", status: .refused)
        }
        let first = try ask(prompt)
        guard !first.isEmpty else { throw CLIFailure(message: "the passphrase must not be empty", status: .refused) }
        return first
    }

    /// Reads a line with the terminal's echo off (when it is a terminal), restored however the
    /// read ends.
    static func ask(_ text: String) throws -> String {
        print(text, terminator: "")
        fflush(nil)
        var saved = termios()
        let terminal = tcgetattr(STDIN_FILENO, &saved) == 0
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        if terminal { tcsetattr(STDIN_FILENO, TCSANOW, &quiet) }
        defer {
            if terminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            print()
        }
        guard let line = readLine() else { throw CLIFailure(message: "no passphrase given", status: .refused) }
        return line
    }
}

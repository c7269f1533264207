import Foundation

/// The sync passphrase: the first line of a file, or typed at the terminal without echo. Never
/// taken from an option's value, which would leave it in the shell's history and `ps`.
enum PassphraseInput {
    static func read(file: String?) throws -> String {
        if let file {
            // A file every user may read is refused (D288); a group-readable one, or a pipe
            // (`<(pass show ledgerly)`), is accepted: secret stores hand secrets over that way.
            var info = stat()
            if stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & S_IROTH != 0 {
                throw CLIFailure(message: "the passphrase file \(file) can be read by every user on this machine", status: .refused,
                                 hint: "chmod o-r \(file)")
            }
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw CLIFailure(message: "cannot read the passphrase file \(file)", status: .refused)
            }
            let line = String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            guard !line.isEmpty else { throw CLIFailure(message: "the passphrase file \(file) is empty on its first line", status: .refused) }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIFailure(message: "no terminal to ask for the sync passphrase: give --passphrase-file", status: .refused)
        }
        let first = try ask("Sync passphrase (every device needs the same one): ")
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

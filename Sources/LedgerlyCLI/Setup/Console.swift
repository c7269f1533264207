import FoundationEssentials
import LedgerlyCore
import Glibc

/// Line-based terminal I/O for the interactive setup: prompts go to stdout (flushed), answers
/// come from stdin. End of input (Ctrl-D) reads as a request to quit, and is remembered: setup
/// left unfinished that way exits non-zero, unlike a deliberate `q`.
final class Console {
    let style = TerminalStyle.standardOutput
    private(set) var reachedEndOfInput = false

    func say(_ text: String = "") {
        print(text)
        fflush(nil)
    }

    /// Prints `prompt` and returns the trimmed answer, or nil at end of input.
    func ask(_ prompt: String) -> String? {
        print(prompt, terminator: "")
        fflush(nil)
        guard let line = readLine() else {
            reachedEndOfInput = true
            print()
            return nil
        }
        return line.trimmingWhitespace()
    }

    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }
}

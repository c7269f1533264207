import ArgumentParser
import LedgerlyCLI
import Testing

/// The completion scripts `make install` writes (`ledgerly --generate-completion-script`) complete
/// file paths wherever a command takes a file, in each of the three shells (issue 46): a file
/// argument declared without `completion: .file()` would complete nothing at all.
struct FileCompletionTests {
    /// A command (its words after `ledgerly`) and the option taking a file; nil for its first
    /// positional argument.
    struct FileArgument: CustomTestStringConvertible, Sendable {
        let command: [String]
        let option: String?
        var testDescription: String { (["ledgerly"] + command + [option ?? "<file>"]).joined(separator: " ") }
    }

    static let fileArguments: [FileArgument] = [
        .init(command: ["import", "csv"], option: nil),
        .init(command: ["import", "csv"], option: "mapping"),
        .init(command: ["import", "csv"], option: "rules"),
        .init(command: ["import", "ofx"], option: nil),
        .init(command: ["import", "camt"], option: nil),
        .init(command: ["import", "qif"], option: "rules"),
        .init(command: ["import", "json"], option: nil),
        .init(command: ["invest", "import"], option: nil),
        .init(command: ["export", "csv"], option: "output"),
        .init(command: ["export", "journal"], option: "output"),
        .init(command: ["tx", "add"], option: "attachment"),
        .init(command: ["tx", "edit"], option: "attachment"),
        .init(command: ["sync", "enable"], option: "password-file"),
        .init(command: ["sync", "enable"], option: "passphrase-file"),
        .init(command: ["backup"], option: nil),
        .init(command: ["restore"], option: nil),
    ]

    // Each script once: writing one walks all of the CLI's commands.
    static let bash = LedgerlyCommand.completionScript(for: .bash)
    static let zsh = LedgerlyCommand.completionScript(for: .zsh)
    static let fish = LedgerlyCommand.completionScript(for: .fish)

    /// The lines of the shell function the script writes for `command` (`_ledgerly_import_csv`),
    /// up to the `}` that closes it.
    static func function(_ command: [String], in script: String) -> [Substring] {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        let header = "_ledgerly_\(command.joined(separator: "_"))() {"
        guard let start = lines.firstIndex(where: { $0 == header }) else { return [] }
        let end = lines[start...].firstIndex(where: { $0 == "}" }) ?? lines.endIndex
        return Array(lines[start..<end])
    }

    @Test(arguments: fileArguments) func bashCompletesAPath(_ argument: FileArgument) {
        let body = Self.function(argument.command, in: Self.bash)
        #expect(!body.isEmpty, "no bash function for \(argument.command)")
        // The case arm for the option (or for positional 1) offers files: `__ledgerly_add_completions -f`.
        let arm = argument.option.map { "'--\($0)')" } ?? "1)"
        guard let at = body.firstIndex(where: { $0.trimmingPrefix(while: \.isWhitespace).hasPrefix(arm) || $0.hasSuffix("'|\(arm)") }) else {
            Issue.record("no case arm \(arm) in \(argument.testDescription)'s bash completion")
            return
        }
        #expect(body[at + 1].contains("__ledgerly_add_completions -f"), "\(body[at + 1])")
    }

    @Test(arguments: fileArguments) func zshCompletesAPath(_ argument: FileArgument) {
        let body = Self.function(argument.command, in: Self.zsh)
        #expect(!body.isEmpty, "no zsh function for \(argument.command)")
        let spec = body.filter { line in
            argument.option.map { line.contains("'--\($0)[") || line.contains(",--\($0)}'[") } ?? (line.trimmingPrefix(while: \.isWhitespace) == "':file:_files'")
        }
        #expect(spec.count == 1 && spec.allSatisfy { $0.hasSuffix(":_files'") }, "\(spec)")
    }

    @Test(arguments: fileArguments) func fishCompletesAPath(_ argument: FileArgument) {
        let script = Self.fish
        let path = "\"ledgerly \(argument.command.joined(separator: " "))\""
        let lines = script.split(separator: "\n").filter { line in
            if let option = argument.option {
                return line.contains("__ledgerly_should_offer_completions_for_flags_or_options \(path) ") && line.contains(" -l '\(option)'")
            }
            return line.contains("__ledgerly_should_offer_completions_for_positional \(path) -eq 1'")
        }
        #expect(!lines.isEmpty, "no fish completion for \(argument.testDescription)")
        // -F (or -rF for an option's value): complete files even where the command offers none.
        #expect(lines.allSatisfy { $0.hasSuffix(" -F") || $0.hasSuffix(" -rF") }, "\(lines)")
    }
}

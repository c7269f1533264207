import ArgumentParser
import Foundation
import LedgerlyCLI
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Synchronization
import Testing

/// `ledgerly` commands run in-process against a real `ledgerly-store` on a temporary home. Where
/// the binary is run as well, the in-process run must print exactly what it prints, so the seam
/// is known not to change the binary's output or exit codes.
@Suite(.serialized) struct CommandLineTests {
    /// A store on a temporary home, set up through the in-process CLI.
    static func setUpStore() throws -> (ServiceHarness, InProcessCLI) {
        let harness = try ServiceHarness()
        try harness.start(.store)
        let ledgerly = InProcessCLI(harness: harness)
        let setup = ledgerly("setup", "--base-currency", "EUR", "--exchange-mode", "official", "--sync", "off", "--yes")
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(setup.stdout.hasPrefix("Ledgerly is set up: base currency EUR, official rates, sync off.\n"))
        return (harness, ledgerly)
    }

    @Test func aWalletAddedInProcessIsListedAsTheBinaryListsIt() throws {
        let (harness, ledgerly) = try Self.setUpStore()
        let added = ledgerly("wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "1000")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("Added wallet 1 'Checking' (EUR)"))
        #expect(added.stderr.isEmpty)

        let listed = ledgerly("wallet", "list", "--json")
        #expect(listed.status == 0)
        let reply = try JSONDecoder().decode(WalletListReply.self, from: Data(listed.stdout.utf8))
        #expect(reply.wallets.map(\.name) == ["Checking"])
        #expect(reply.wallets.first?.currency == "EUR")
        #expect(reply.wallets.first?.startingBalance == reply.wallets.first?.balance)

        for arguments in [["wallet", "list", "--json"], ["wallet", "list"], ["wallet", "show", "Checking"]] {
            let inProcess = ledgerly.run(arguments + ["--home", harness.home.root.path])
            let binary = try harness.cli(arguments)
            #expect(inProcess.status == binary.status, "\(arguments)")
            #expect(inProcess.stdout == binary.stdout, "\(arguments)")
            #expect(inProcess.stderr == binary.stderr, "\(arguments)")
        }
    }

    @Test func aRefusedInputExitsOneNamingTheOption() throws {
        let (harness, ledgerly) = try Self.setUpStore()
        let arguments = ["wallet", "add", "Broken", "--currency", "EUR", "--starting-balance", "12.345.6"]
        let refused = ledgerly.run(arguments + ["--home", harness.home.root.path])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("error: "))
        #expect(refused.stderr.contains("--starting-balance"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("body."), "a protocol path leaked: \(refused.stderr)")
        let binary = try harness.cli(arguments)
        #expect(binary.status == refused.status)
        #expect(binary.stderr == refused.stderr)

        let unknown = ledgerly("tx", "add", "--wallet", "Nowhere", "--amount", "5")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("error: --wallet: no wallet 'Nowhere'"), "\(unknown.stderr)")
    }

    @Test func badArgumentsExitSixtyFourAsTheBinaryDoes() throws {
        let harness = try ServiceHarness()
        let ledgerly = InProcessCLI(harness: harness)
        let missing = ledgerly("wallet", "add", "--currency", "EUR")
        #expect(missing.status == 64)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("Missing expected argument '<name>'"), "\(missing.stderr)")
        let binary = try harness.cli(["wallet", "add", "--currency", "EUR", "--home", harness.home.root.path])
        #expect(binary.status == missing.status)
        #expect(binary.stderr == missing.stderr)
    }

    @Test func helpGoesToStandardOutputWithExitZero() throws {
        let ledgerly = InProcessCLI(harness: try ServiceHarness())
        let help = ledgerly("wallet", "add", "--help", home: false)
        #expect(help.status == 0)
        #expect(help.stderr.isEmpty)
        #expect(help.stdout.contains("OVERVIEW: Add a wallet."))
        #expect(help.stdout.contains("USAGE: ledgerly wallet add "), "\(help.stdout)")
        #expect(help.stdout.contains("<name>"))
        #expect(help.stdout.contains("--starting-balance"))
        let root = ledgerly("--help", home: false)
        #expect(root.status == 0)
        #expect(root.stdout.contains("EXIT CODES:"))
        #expect(root.stdout.contains("64  bad command-line arguments"))
    }

    @Test func aStoreThatIsNotRunningExitsThree() throws {
        let harness = try ServiceHarness()
        let ledgerly = InProcessCLI(harness: harness)
        let down = ledgerly("wallet", "list")
        #expect(down.status == 3)
        #expect(down.stderr.hasPrefix("error: ledgerly-store is not running"), "\(down.stderr)")
        #expect(down.stderr.contains("hint: Start Ledgerly"))
    }
}

/// Every command names itself: without `commandName`, swift-argument-parser derives the name with
/// `String(describing:)` of the type, and each such call scans the binary's protocol
/// conformances. With ~100 commands that was over a third of the CLI's start-up (`perf`,
/// docs/performance.md), paid by every command, `--version` included.
@Suite struct CommandNameTests {
    @Test func everyCommandHasAnExplicitName() {
        let unnamed = LedgerlyCommandTree.all().filter { $0.command.configuration.commandName == nil }
            .map { "\($0.path.joined(separator: " ")) > \($0.command)" }
        #expect(unnamed.isEmpty, "commands without commandName: \(unnamed)")
    }

    /// Every command's help prints: swift-argument-parser checks a command's options only when
    /// that command is parsed, so two options of one name (a global `--color` meeting
    /// `category add --color`) would otherwise surface only when someone typed the command.
    @Test func everyCommandsHelpPrints() {
        var failures: [String] = []
        for (path, command) in LedgerlyCommandTree.all() where command.configuration.subcommands.isEmpty {
            let errors = Mutex("")
            let output = CommandOutput(standardOutput: { _ in }, standardError: { text in errors.withLock { $0 += text } })
            let status = LedgerlyCommand.run(arguments: path + ["--help"], output: output)
            if status != 0 { failures.append("\(path.joined(separator: " ")): exit \(status) \(errors.withLock { $0 })") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}

/// Every `ledgerly` command, groups included, with the words after `ledgerly` that run it (the
/// root's are none); a command without a name is walked as "?".
enum LedgerlyCommandTree {
    static func all() -> [(path: [String], command: any ParsableCommand.Type)] {
        var found: [(path: [String], command: any ParsableCommand.Type)] = []
        func walk(_ command: any ParsableCommand.Type, path: [String]) {
            found.append((path, command))
            for sub in command.configuration.subcommands { walk(sub, path: path + [sub.configuration.commandName ?? "?"]) }
        }
        walk(LedgerlyCommand.self, path: [])
        return found
    }
}

/// Help reads as paragraphs: swift-argument-parser wraps each line of a discussion to the
/// terminal's width (80 columns when it cannot tell) and keeps the line breaks it is given, so a
/// sentence written across two source lines, the first longer than the terminal, printed a short
/// fragment on a line of its own in the middle of the sentence. Such paragraphs are one line in
/// the discussion (source lines joined with `\`); list items, option lines, formulas and examples
/// keep their own lines.
@Suite struct CommandHelpLayoutTests {
    /// The widest line swift-argument-parser prints whole at an 80-column terminal: it wraps a
    /// line of 80 characters too (seen with `ledgerly tx add --help`).
    static let widestLine = 79

    /// A line that continues the sentence above it: not blank, not indented, not a list item, an
    /// example or a labelled line ("Defaults: …").
    static func continuesASentence(_ line: Substring) -> Bool {
        guard let first = line.first, first != " " else { return false }
        if line.hasPrefix("- ") || line.hasPrefix("Example:") || line.hasPrefix("ledgerly ") { return false }
        if let colon = line.firstIndex(of: ":"), line[..<colon].count <= 21,
           line[..<colon].allSatisfy({ $0.isLetter || $0 == " " }), line[colon...].hasPrefix(": "), line.first?.isUppercase == true {
            return false
        }
        return true
    }

    /// Whether a line ends a sentence (what follows it then starts a line of its own anyway).
    static func endsASentence(_ line: Substring) -> Bool {
        let trimmed = line.reversed().drop(while: { "\"`)] ".contains($0) })
        return trimmed.first.map { ".!?".contains($0) } ?? true
    }

    @Test func noDiscussionBreaksASentenceAfterALineLongerThanTheTerminal() {
        var broken: [String] = []
        for (path, command) in LedgerlyCommandTree.all() {
            let name = (["ledgerly"] + path).joined(separator: " ")
            let lines = command.configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst())
            where line.count > Self.widestLine && !Self.endsASentence(line) && Self.continuesASentence(next) {
                broken.append("\(name): \"\(line.suffix(30))\" / \"\(next.prefix(30))\"")
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// An example, an indented line (flags, formulas, an example's continuation) or a command line
    /// fits the terminal: wrapped, a command someone copies from the help breaks in two.
    @Test func noExampleIsWiderThanTheTerminal() {
        var wide: [String] = []
        for (path, command) in LedgerlyCommandTree.all() {
            let name = (["ledgerly"] + path).joined(separator: " ")
            for line in command.configuration.discussion.split(separator: "\n")
            where (line.hasPrefix("Example:") || line.hasPrefix(" ") || line.hasPrefix("ledgerly ")) && line.count > Self.widestLine {
                wide.append("\(name): \(line.count) columns: \(line)")
            }
        }
        #expect(wide.isEmpty, "\(wide.joined(separator: "\n"))")
    }

    /// The rule's two parts, on lines of the help they were written for: a sentence's next line
    /// continues it; a list item, an option line, an example, a labelled line and a blank line do
    /// not; a sentence's end is told from a break in its middle.
    @Test func theRuleTellsABrokenSentenceFromALayout() {
        #expect(Self.continuesASentence("history, the alert log and conversion history"))
        #expect(Self.continuesASentence("--drift-points` (default 5); the alerts service raises one alert"))
        #expect(!Self.continuesASentence("  --core      counted in core net worth"))
        #expect(!Self.continuesASentence("- a list item"))
        #expect(!Self.continuesASentence("Example: ledgerly asset add House --value 250000"))
        #expect(!Self.continuesASentence("Defaults: the currency of your locale (LC_ALL / LANG) or USD"))
        #expect(!Self.continuesASentence(""))
        #expect(Self.endsASentence("investments, and net worth (manual assets, liabilities, monthly snapshots)."))
        #expect(!Self.endsASentence("wallets, categories, tags, rate profiles and rate"))
    }
}

import ArgumentParser

/// "Did you mean" for a mistyped command (`ledgerly tx lst`): swift-argument-parser suggests
/// options by name but only calls an unknown command an unexpected argument. The command line is
/// walked down the command tree; the first word that names no subcommand where one is expected is
/// compared with the subcommands there.
enum CommandSuggestion {
    /// "unknown command 'lst' under 'ledgerly tx': did you mean 'list'?", or nil when every word
    /// before the first option names a command, or nothing is close.
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        for word in arguments {
            guard !word.hasPrefix("-") else { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { names(of: $0).contains(word) }) {
                command = next
                path.append(next._commandName)
                continue
            }
            guard let suggestion = NameSuggestion.nearest(word, among: subcommands.flatMap(names(of:))) else { return nil }
            return "unknown command '\(word)' under '\(path.joined(separator: " "))': did you mean '\(suggestion)'?"
        }
        return nil
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }
}

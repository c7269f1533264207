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
            let typed = word.lowercased()
            let candidates = subcommands.flatMap(names(of:))
            // The one command the word begins, else the nearest within a typo or two.
            let begun = candidates.filter { $0.hasPrefix(typed) }
            let nearest = candidates.map { (name: $0, distance: distance(typed, $0)) }.min { $0.distance < $1.distance }
            guard let suggestion = begun.count == 1 ? begun.first : nearest.flatMap({ $0.distance <= max(1, min(2, typed.count / 3)) ? $0.name : nil }) else {
                return nil
            }
            return "unknown command '\(word)' under '\(path.joined(separator: " "))': did you mean '\(suggestion)'?"
        }
        return nil
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }

    /// Levenshtein distance, for the few short names of one level.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

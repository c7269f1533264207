import ArgumentParser
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// Tab completion of wallet and category names: the shell's completion script (from
/// `ledgerly --generate-completion-script bash|zsh|fish`) runs `ledgerly` again when TAB is
/// pressed after `--wallet` or `--category`, and these closures answer with the names the store
/// has that begin with what was typed.
///
/// Why the store is asked at TAB time: names change, so a list baked into the script would go
/// stale. The ask is one try with a short timeout, and a store that is down, not set up or slow
/// gives no names rather than an error: completion must never print a message into the line the
/// user is typing.
enum NameCompletion {
    static let wallets = CompletionKind.custom { words, _, prefix in
        names(words: words, prefix: prefix) { client in try client.call(WalletListRequest()).wallets.map(\.name) }
    }

    static let categories = CompletionKind.custom { words, _, prefix in
        names(words: words, prefix: prefix) { client in try client.call(CategoryListRequest()).categories.map(\.path) }
    }

    /// How long a TAB may wait for the store.
    static let timeoutMilliseconds = 300

    /// The names `list` gives that begin with `prefix` (case ignored), sorted; none on any failure.
    static func names(words: [String], prefix: String, _ list: (RequestClient) throws -> [String]) -> [String] {
        let home = LedgerlyHome.resolve(explicit: explicitHome(in: words))
        guard let context = try? ZMQContext() else { return [] }
        let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: timeoutMilliseconds, attempts: 1))
        defer { client.close() }
        guard let names = try? list(client) else { return [] }
        let typed = prefix.lowercased()
        return names.filter { $0.lowercased().hasPrefix(typed) }.sorted()
    }

    /// `--home PATH` or `--home=PATH` among the words typed so far, so completion asks the
    /// ledger the command will use.
    static func explicitHome(in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--home", index + 1 < words.count { return unquoted(words[index + 1]) }
            if word.hasPrefix("--home=") { return unquoted(String(word.dropFirst("--home=".count))) }
        }
        return nil
    }

    /// Shell words come as typed, quotes included; a path in plain quotes is what most people type.
    private static func unquoted(_ word: String) -> String {
        if word.count >= 2, let first = word.first, first == word.last, first == "'" || first == "\"" { return String(word.dropFirst().dropLast()) }
        return word
    }
}

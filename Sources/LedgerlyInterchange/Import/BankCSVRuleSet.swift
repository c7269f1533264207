import LedgerlyCore

/// A mapping's rules, compiled once per import and applied to each row.
///
/// How rules combine:
/// - The category comes from the first matching rule that has one; later rules are not looked
///   at for the category, so a user orders rules from specific to general ("AMAZON PRIME" before
///   "AMAZON").
/// - Tags are the winning rule's tags plus those of every matching tag-only rule, wherever it
///   sits in the list: a tag-only rule ("anything with PAYPAL gets the tag paypal") is meant to
///   apply across categories, and making it depend on its position would surprise.
/// - Tags are kept in rule order without repeats (compared case-insensitively).
struct BankCSVRuleSet {
    private enum Matcher {
        case contains([UInt8])
        case regex(Regex<AnyRegexOutput>)
    }

    private struct Compiled {
        let matcher: Matcher
        let category: String?
        let tags: [String]
        let kind: TransactionKind?
    }

    private let rules: [Compiled]

    init(_ rules: [BankCSVRule]) throws(BankStatementError) {
        var compiled: [Compiled] = []
        for (index, rule) in rules.enumerated() {
            do {
                try rule.validate()
            } catch {
                throw BankStatementError(line: nil, "rule \(index + 1): \(error.message)")
            }
            let matcher: Matcher
            switch rule.match {
            case .contains(let text):
                matcher = .contains(Array(text.lowercased().utf8))
            case .regex(let pattern):
                do {
                    matcher = .regex(try Regex(pattern).ignoresCase())
                } catch {
                    throw BankStatementError(line: nil, "rule \(index + 1): regex \"\(pattern)\" is not valid: \(error)")
                }
            }
            compiled.append(Compiled(
                matcher: matcher,
                category: rule.category.flatMap(BankCSVRule.normalizedCategory),
                tags: rule.tags.map { $0.trimmingWhitespace() },
                kind: rule.kind
            ))
        }
        self.rules = compiled
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The category path and tags for a row with this (whitespace-collapsed) description.
    func apply(description: String, kind: TransactionKind) -> (category: String?, tags: [String]) {
        guard !rules.isEmpty else { return (nil, []) }
        let lowered = description.lowercased()
        var category: String?
        var tags: [String] = []
        var seen: Set<String> = []
        for rule in rules {
            if let ruleKind = rule.kind, ruleKind != kind { continue }
            if category != nil, rule.category != nil { continue }
            let matches = switch rule.matcher {
            case .contains(let needle): lowered.containsBytes(needle)
            case .regex(let regex): description.contains(regex)
            }
            guard matches else { continue }
            if let ruleCategory = rule.category { category = ruleCategory }
            for tag in rule.tags where seen.insert(tag.lowercased()).inserted {
                tags.append(tag)
            }
        }
        return (category, tags)
    }
}

import LedgerlyCore

/// One categorisation rule of a mapping: rows whose description matches get a category and tags.
///
/// JSON: `{ "contains": "lidl", "category": "Food:Groceries", "tags": ["groceries"] }` or
/// `{ "regex": "^ALDI", ... }`, optionally with `"kind": "expense"` or `"income"`.
///
/// - Matching is case-insensitive, because banks print the same merchant as "LIDL", "Lidl" and
///   "lidl" across months.
/// - `kind` is a condition, not an override: the rule only applies to rows of that kind (a
///   refund from a shop can go elsewhere than the purchase). Changing a row's kind would make
///   the wallet disagree with the bank statement, which is never what a rule should do.
/// - `category` is a path with `:` between parent and child; the importer leaves resolving it
///   to category ids to the caller, which knows the ledger's categories.
/// - A rule without `category` only adds `tags`; see `BankCSVRuleSet` for how rules combine.
public struct BankCSVRule: Codable, Hashable, Sendable {
    public enum Match: Hashable, Sendable {
        /// A substring of the description.
        case contains(String)
        /// A regular expression (Swift `Regex` syntax, which is PCRE-like) found anywhere in
        /// the description; anchor it with `^`/`$` to match the whole of it.
        case regex(String)
    }

    public var match: Match
    public var category: String?
    public var tags: [String]
    public var kind: TransactionKind?

    public init(match: Match, category: String? = nil, tags: [String] = [], kind: TransactionKind? = nil) {
        self.match = match
        self.category = category
        self.tags = tags
        self.kind = kind
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case contains, regex, category, tags, kind
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, known: CodingKeys.allCases.map(\.rawValue), what: "a rule")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let contains = try container.decodeIfPresent(String.self, forKey: .contains)
        let regex = try container.decodeIfPresent(String.self, forKey: .regex)
        switch (contains, regex) {
        case (let text?, nil): match = .contains(text)
        case (nil, let pattern?): match = .regex(pattern)
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a rule needs exactly one of \"contains\" and \"regex\""
            ))
        }
        category = try container.decodeIfPresent(String.self, forKey: .category)
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        if let kindText = try container.decodeIfPresent(String.self, forKey: .kind) {
            guard let kind = TransactionKind(rawValue: kindText) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container,
                    debugDescription: "kind \"\(kindText)\" is not \"expense\" or \"income\""
                )
            }
            self.kind = kind
        } else {
            kind = nil
        }
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch match {
        case .contains(let text): try container.encode(text, forKey: .contains)
        case .regex(let pattern): try container.encode(pattern, forKey: .regex)
        }
        try container.encodeIfPresent(category, forKey: .category)
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        try container.encodeIfPresent(kind, forKey: .kind)
    }

    /// Refuses rules that could never do anything useful or would do it by accident.
    public func validate() throws(BankStatementError) {
        switch match {
        case .contains(let text):
            if text.trimmingWhitespace().isEmpty { throw BankStatementError(line: nil, "a rule's \"contains\" is empty, so it would match every row") }
        case .regex(let pattern):
            if pattern.isEmpty { throw BankStatementError(line: nil, "a rule's \"regex\" is empty, so it would match every row") }
            do {
                _ = try Regex(pattern)
            } catch {
                throw BankStatementError(line: nil, "a rule's regex \"\(pattern)\" is not valid: \(error)")
            }
        }
        if category == nil, tags.isEmpty {
            throw BankStatementError(line: nil, "a rule (\(matchDescription)) has neither \"category\" nor \"tags\"")
        }
        if let category, Self.normalizedCategory(category) == nil {
            throw BankStatementError(line: nil, "category \"\(category)\" is not a path: write names separated by ':', e.g. Food:Groceries")
        }
        if tags.contains(where: { $0.trimmingWhitespace().isEmpty }) {
            throw BankStatementError(line: nil, "a rule (\(matchDescription)) has an empty tag")
        }
    }

    var matchDescription: String {
        switch match {
        case .contains(let text): "contains \"\(text)\""
        case .regex(let pattern): "regex \"\(pattern)\""
        }
    }

    /// `" Food : Groceries "` → `"Food:Groceries"`; nil when a part is empty (`"Food::"`).
    static func normalizedCategory(_ path: String) -> String? {
        let parts = path.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        guard !parts.contains(where: \.isEmpty) else { return nil }
        return parts.joined(separator: ":")
    }
}

import LedgerlyProtocol

/// Each category's names from the root down ("Food", "Groceries"), worked out once from the
/// parent links.
///
/// Why the parent chain rather than splitting `CategoryRecord.path` on "/": a name may itself hold
/// a "/" ("Rent/Mortgage"), which the path cannot tell from a level. The path is only the fallback
/// when a parent is not among the records given (or the links loop, which the store forbids).
struct CategoryNameChains: Sendable {
    private let chains: [Int64: [String]]
    let categories: [Int64: CategoryRecord]

    init(_ records: [CategoryRecord]) {
        var byId: [Int64: CategoryRecord] = [:]
        for record in records { byId[record.id] = record }
        var chains: [Int64: [String]] = [:]
        for record in records { Self.resolve(record.id, byId: byId, chains: &chains, visiting: []) }
        self.chains = chains
        self.categories = byId
    }

    /// The names from the root down to `id`; nil for a category not given.
    func names(_ id: Int64) -> [String]? { chains[id] }

    @discardableResult
    private static func resolve(_ id: Int64, byId: [Int64: CategoryRecord], chains: inout [Int64: [String]], visiting: Set<Int64>) -> [String] {
        if let known = chains[id] { return known }
        guard let record = byId[id] else { return [] }
        let prefix: [String]
        if let parentId = record.parentId, byId[parentId] != nil, !visiting.contains(parentId) {
            prefix = resolve(parentId, byId: byId, chains: &chains, visiting: visiting.union([id]))
        } else if record.parentId != nil {
            prefix = record.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        } else {
            prefix = []
        }
        let chain = prefix + [record.name]
        chains[id] = chain
        return chain
    }
}

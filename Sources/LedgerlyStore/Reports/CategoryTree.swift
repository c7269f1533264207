import GRDB
import LedgerlyCore

/// The categories as a tree, read once per report: paths, ancestors and the order rows print in.
struct CategoryTree {
    struct Node {
        let id: Int64
        let name: String
        let kind: CategoryKind
        let parentId: Int64?
        let sortOrder: Int
    }

    let nodes: [Int64: Node]

    init(_ db: Database) throws {
        var nodes: [Int64: Node] = [:]
        try CategoryRow.eachNode(db) { nodes[$0.id] = $0 }
        self.nodes = nodes
    }

    /// The category and its ancestors, nearest first.
    func chain(_ id: Int64) -> [Int64] {
        var chain: [Int64] = []
        var next: Int64? = id
        while let current = next, let node = nodes[current], !chain.contains(current) {
            chain.append(current)
            next = node.parentId
        }
        return chain
    }

    func path(_ id: Int64) -> String {
        chain(id).reversed().compactMap { nodes[$0]?.name }.joined(separator: "/")
    }

    /// `ids` in tree order: siblings by sort order then name, each parent before its children.
    func ordered(_ ids: Set<Int64>) -> [Int64] {
        let children = Dictionary(grouping: ids.compactMap { nodes[$0] }, by: { $0.parentId ?? 0 })
        var ordered: [Int64] = []
        func visit(_ parent: Int64) {
            let siblings = (children[parent] ?? []).sorted {
                ($0.sortOrder, $0.name.lowercased(), $0.id) < ($1.sortOrder, $1.name.lowercased(), $1.id)
            }
            for node in siblings {
                ordered.append(node.id)
                visit(node.id)
            }
        }
        visit(0)
        return ordered
    }
}

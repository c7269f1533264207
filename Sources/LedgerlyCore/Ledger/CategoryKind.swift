/// Categories are either for income or for expenses; a child has its parent's kind.
public enum CategoryKind: String, Codable, CaseIterable, Sendable {
    case income, expense
}

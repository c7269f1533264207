/// Which lots a sale consumes (docs/investments.md). A sale may also name its lots, whatever the
/// account's method.
public enum CostBasisMethod: String, Codable, CaseIterable, Sendable {
    /// First in, first out: the oldest lots first.
    case fifo
    /// Last in, first out: the newest lots first.
    case lifo
    /// Average cost: every open lot of the holding carries the holding's average cost per unit,
    /// and a sale takes that average; quantities still leave the oldest lots first.
    case average
}

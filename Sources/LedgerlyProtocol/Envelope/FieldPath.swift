/// The input a refusal is about, as a path into the request: `body.splits[1].amount`.
///
/// Built from its parts (`.body("splits")[1].member("amount")`) rather than written as text, so a
/// path is always well formed; `wire` is the text an error reply carries in `field`, and
/// `init?(wire:)` reads one back (the CLI maps it to the option a person typed).
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    public enum Step: Hashable, Sendable {
        case member(String)
        case index(Int)
    }

    public let steps: [Step]

    public init(steps: [Step]) { self.steps = steps }

    /// A member of the request body.
    public static func body(_ member: String) -> FieldPath { FieldPath(steps: [.member("body"), .member(member)]) }

    /// The request body as a whole.
    public static let wholeBody = FieldPath(steps: [.member("body")])

    /// A path outside the body: a stored setting (`settings.baseCurrency`), or a handler's own
    /// root (`kept.…`, `item.…`) that its caller places inside the request.
    public static func root(_ name: String) -> FieldPath { FieldPath(steps: [.member(name)]) }

    public func member(_ name: String) -> FieldPath { FieldPath(steps: steps + [.member(name)]) }

    public subscript(index: Int) -> FieldPath { FieldPath(steps: steps + [.index(index)]) }

    /// This path inside another: an import item's transaction fields sit under `body.items[3].transaction`.
    public func nested(under outer: FieldPath) -> FieldPath {
        guard case .member("body") = steps.first else { return FieldPath(steps: outer.steps + steps) }
        return FieldPath(steps: outer.steps + steps.dropFirst())
    }

    /// The members after `body`, without indices: `["splits", "amount"]` for `body.splits[1].amount`.
    public var bodyMembers: [String] {
        guard case .member("body") = steps.first else { return [] }
        return steps.dropFirst().compactMap { if case .member(let name) = $0 { name } else { nil } }
    }

    /// The first index in the path, if any: which split, which item.
    public var firstIndex: Int? {
        for step in steps { if case .index(let index) = step { return index } }
        return nil
    }

    public var wire: String {
        var text = ""
        for step in steps {
            switch step {
            case .member(let name): text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    public var description: String { wire }

    /// Reads a `field` from an error reply; nil for text that is not a path.
    public init?(wire: String) {
        var steps: [Step] = []
        for part in wire.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let bracket = rest.firstIndex(of: "[") ?? rest.endIndex
            let name = rest[..<bracket]
            guard !name.isEmpty else { return nil }
            steps.append(.member(String(name)))
            rest = rest[bracket...]
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]) else { return nil }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
        }
        guard !steps.isEmpty else { return nil }
        self.steps = steps
    }
}

/// Markup that is safe to send: the one way pages are rendered (D512).
///
/// A page is written as a string literal of markup; every `String` interpolated into it goes
/// through `HTMLEscaping.escape`, and only another `HTML` value is inserted as it is. So text the
/// user typed cannot become markup unless code wraps it in `HTML(trusted:)`, which only the
/// service's own constants and the chart builders (whose text is escaped as they build) do.
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var markup: String

    /// Markup written by the service itself, never text from a request or the store.
    public init(trusted markup: String) { self.markup = markup }

    public init(stringLiteral value: String) { markup = value }

    public init(stringInterpolation: Interpolation) { markup = stringInterpolation.markup }

    public var description: String { markup }

    public static let empty = HTML(trusted: "")

    /// Joins fragments (a list's rows).
    public static func join(_ parts: [HTML], separator: String = "") -> HTML {
        HTML(trusted: parts.map(\.markup).joined(separator: separator))
    }

    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""
        public init(literalCapacity: Int, interpolationCount: Int) { markup.reserveCapacity(literalCapacity * 2) }
        public mutating func appendLiteral(_ literal: String) { markup += literal }
        /// Text: escaped, always.
        public mutating func appendInterpolation(_ text: String) { markup += HTMLEscaping.escape(text) }
        public mutating func appendInterpolation(_ text: String?) { markup += HTMLEscaping.escape(text ?? "") }
        public mutating func appendInterpolation(_ number: Int) { markup += String(number) }
        public mutating func appendInterpolation(_ number: Int64) { markup += String(number) }
        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }
        public mutating func appendInterpolation(_ parts: [HTML]) { for part in parts { markup += part.markup } }
    }
}

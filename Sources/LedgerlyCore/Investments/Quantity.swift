import FoundationEssentials

/// An exact number of units of an asset (shares, coins), held as an integer count of 10⁻¹⁸ units
/// so that adding, taking and splitting lots never rounds.
///
/// Text is digits with at most one '.', at most 15 digits before the point and 18 after; a
/// quantity typed in a trade also has at most 20 significant digits, so that quantity × price
/// (price at most 18 digits) is exact in `Decimal`'s 38 digits (docs/investments.md).
public struct Quantity: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Decimal places kept.
    public static let scale = 18
    static let unit: Int128 = 1_000_000_000_000_000_000
    /// 10¹⁵ whole units: above anything held, low enough that every product below fits.
    static let limit: Int128 = unit * 1_000_000_000_000_000
    public static let maximumSignificantDigits = 20

    /// The quantity times 10¹⁸.
    public let atto: Int128

    public static let zero = Quantity(atto: 0)

    public init(atto: Int128) { self.atto = atto }

    /// Parses a quantity typed by a person or a file: positive, plain decimal.
    public init(parsing text: String) throws(QuantityError) {
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "-") { throw .notPositive(text) }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: ([UInt8]) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        let whole = Array(parts.first ?? [])
        var fraction = parts.count == 2 ? Array(parts[1]) : []
        guard isDigits(whole), parts.count == 1 || isDigits(fraction) else { throw .malformed(text) }
        while fraction.last == 0x30 { fraction.removeLast() }
        guard fraction.count <= Self.scale else { throw .tooManyDecimals(text) }
        let significant = (whole + fraction).drop(while: { $0 == 0x30 })
        guard whole.drop(while: { $0 == 0x30 }).count <= 15 else { throw .tooLarge(text) }
        guard significant.count <= Self.maximumSignificantDigits else { throw .tooPrecise(text) }
        var value: Int128 = 0
        for byte in whole + fraction + Array(repeating: UInt8(0x30), count: Self.scale - fraction.count) {
            value = value * 10 + Int128(byte - 0x30)
        }
        guard value > 0 else { throw .notPositive(text) }
        self.atto = value
    }

    /// Reads a quantity this program stored (no significant-digit limit: a remainder may be longer).
    public init(stored text: String) throws(QuantityError) {
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let wholeText = parts.first, !wholeText.isEmpty, wholeText.allSatisfy(\.isASCII), let whole = Int128(wholeText) else { throw .malformed(text) }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= Self.scale, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .malformed(text) }
        fraction += String(repeating: "0", count: Self.scale - fraction.count)
        guard let fractional = Int128(fraction) else { throw .malformed(text) }
        let value = whole * Self.unit + fractional
        self.atto = negative ? -value : value
    }

    /// Plain decimal, no trailing zeros ("10", "0.5").
    public var description: String {
        let magnitude = atto.magnitude
        let whole = magnitude / UInt128(Self.unit)
        var fraction = String(magnitude % UInt128(Self.unit))
        fraction = String(repeating: "0", count: Self.scale - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return (atto < 0 ? "-" : "") + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// The exact value as a `Decimal` (at most 33 digits).
    public var decimal: Decimal {
        Decimal(string: description, locale: Locale(identifier: "en_US_POSIX")) ?? 0
    }

    public var isPositive: Bool { atto > 0 }

    public static func + (lhs: Quantity, rhs: Quantity) -> Quantity { Quantity(atto: lhs.atto + rhs.atto) }
    public static func - (lhs: Quantity, rhs: Quantity) -> Quantity { Quantity(atto: lhs.atto - rhs.atto) }
    public static func < (lhs: Quantity, rhs: Quantity) -> Bool { lhs.atto < rhs.atto }

    /// The quantity times `new / old` (a split), or nil when that needs more than 18 decimals.
    public func split(new: Int, old: Int) -> Quantity? {
        let (product, overflow) = atto.multipliedReportingOverflow(by: Int128(new))
        guard !overflow, product % Int128(old) == 0 else { return nil }
        return Quantity(atto: product / Int128(old))
    }
}

/// Why a quantity was refused.
public enum QuantityError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case notPositive(String)
    case tooManyDecimals(String)
    case tooLarge(String)
    case tooPrecise(String)

    public var description: String {
        switch self {
        // The input escaped as every message that repeats it is (`InputEcho`: U+200B, U+FEFF, …).
        case .malformed(let text): "\(InputEcho.quoted(text)) is not a quantity (digits with at most one '.', e.g. 10 or 0.125)"
        case .notPositive(let text): "\(InputEcho.escaped(text)) is not a positive quantity"
        case .tooManyDecimals(let text): "\(InputEcho.escaped(text)) has more than \(Quantity.scale) decimal places"
        case .tooLarge(let text): "\(InputEcho.escaped(text)) is more than 15 digits of whole units"
        case .tooPrecise(let text): "\(InputEcho.escaped(text)) has more than \(Quantity.maximumSignificantDigits) significant digits"
        }
    }
}

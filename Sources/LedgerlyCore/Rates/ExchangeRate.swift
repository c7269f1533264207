// `_NSDecimalRound`, the rounding behind Foundation's `NSDecimalRound` (D380).
@_spi(SwiftCorelibsFoundation) import FoundationEssentials

/// An exchange rate or price: how many units of one currency one unit of another is worth,
/// as an exact positive decimal (Foundation's `Decimal`, 38 significant digits, base 10; never
/// binary floating point).
///
/// The accepted range is wide on purpose: parallel-market rates (IRR, VES, VND per USD) run into
/// the hundreds of thousands, a bitcoin costs billions of dong (and its inverse is below 10⁻⁹),
/// and small tokens cost fractions of a cent, so anything from 10⁻¹² to 10¹² is a rate; a manual
/// rate far from the last known one is warned about, not refused. This is the one range every
/// rate given to Ledgerly is checked against (`rates.set`, `rates.batch`, `rates.restore`, a
/// one-off `tx.create` rate, providers, the drop folder and the CLI); see docs/decisions.md D88.
public struct ExchangeRate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let minimum = Decimal(sign: .plus, exponent: -12, significand: 1)
    public static let maximum = Decimal(sign: .plus, exponent: 12, significand: 1)
    /// "0.000000000001 to 1000000000000", for messages.
    public static var rangeDescription: String { "\(minimum) to \(maximum)" }
    /// Significant digits kept; more than a provider ever sends, fewer than `Decimal` holds, so
    /// products of two rates stay exact.
    public static let maximumDigits = 18
    private static let digitLimit = Decimal(sign: .plus, exponent: maximumDigits, significand: 1)

    public let value: Decimal
    /// The same number as a 64-bit integer times a power of ten (trailing zeros taken out, so
    /// equal rates have equal forms), for `CurrencyConverter`'s integer path (D357); nil when
    /// the significand does not fit (a cross rate's 36 digits).
    public let integerForm: IntegerForm?

    public struct IntegerForm: Hashable, Sendable {
        public let significand: Int64
        public let exponent: Int
    }

    /// The rate between a currency and itself.
    public static let one = ExchangeRate(unchecked: 1)

    /// Parses a plain decimal ("161.25", "0.0061823802"): digits, one optional '.', nothing else.
    public init(parsing text: String) throws(RateError) {
        // "-1.5": a number, but not a rate; say so rather than "not a rate".
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "-"), Self.isPlainDecimal(bytes.dropFirst()) { throw RateError.notPositive(text) }
        let digits = bytes.filter { $0 >= 0x30 && $0 <= 0x39 }
        guard Self.isPlainDecimal(bytes[...]), let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { throw RateError.malformed(text) }
        let significant = digits.drop(while: { $0 == 0x30 }).count
        guard significant <= Self.maximumDigits else { throw RateError.tooPrecise(text) }
        try self.init(exactly: value, text: text)
    }

    /// Digits with at most one '.', neither first nor last.
    private static func isPlainDecimal(_ bytes: ArraySlice<UInt8>) -> Bool {
        let dots = bytes.filter { $0 == UInt8(ascii: ".") }.count
        let digits = bytes.filter { $0 >= 0x30 && $0 <= 0x39 }.count
        return !bytes.isEmpty && dots <= 1 && digits + dots == bytes.count && bytes.first != UInt8(ascii: ".") && bytes.last != UInt8(ascii: ".")
    }

    /// Reads a rate this program stored (an effective cross rate may be longer than
    /// `maximumDigits` and outside the range of a single quote); only positivity is checked.
    public init(stored text: String) throws(RateError) {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN, value > 0 else { throw RateError.malformed(text) }
        self.value = value
        integerForm = Self.integerForm(of: value)
    }

    /// Wraps a decimal read from a provider (JSON numbers decode to `Decimal` from their text),
    /// with the same digit limit as typed rates, so a rate a parser accepts the store accepts too.
    public init(exactly value: Decimal) throws(RateError) {
        // At most `maximumDigits` digits ⟺ the integer significand is below 10^maximumDigits: a
        // comparison, where counting digits would format the number (most of a parse's cost).
        guard value.significand.magnitude < Self.digitLimit else { throw RateError.tooPrecise(value.description) }
        try self.init(exactly: value, text: value.description)
    }

    /// `text` is only built for an error: describing a `Decimal` costs more than checking it.
    private init(exactly value: Decimal, text: @autoclosure () -> String) throws(RateError) {
        guard !value.isNaN, value > 0 else { throw RateError.notPositive(text()) }
        guard value >= Self.minimum, value <= Self.maximum else { throw RateError.outOfRange(text()) }
        self.value = value
        integerForm = Self.integerForm(of: value)
    }

    private init(unchecked value: Decimal) {
        self.value = value
        integerForm = Self.integerForm(of: value)
    }

    /// Read from the decimal's plain notation (digits and at most one point); nil for anything
    /// else or more than 18 significant digits.
    private static func integerForm(of value: Decimal) -> IntegerForm? {
        var significand: Int64 = 0
        var digits = 0, decimals = 0, point = false
        for byte in value.description.utf8 {
            if byte == UInt8(ascii: ".") && !point { point = true; continue }
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            if point { decimals += 1 }
            guard significand > 0 || byte != 0x30 else { continue }
            digits += 1
            guard digits <= 18 else { return nil }
            significand = significand * 10 + Int64(byte - 0x30)
        }
        guard significand > 0 else { return nil }
        var exponent = -decimals
        while significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        return IntegerForm(significand: significand, exponent: exponent)
    }

    /// 1 / rate, to `maximumDigits` significant digits (a rate and its inverse are stored together).
    public var inverse: ExchangeRate {
        var quotient = Decimal(1) / value
        var rounded = Decimal()
        let scale = Self.maximumDigits - 1 - Int(quotient.exponent + quotient.significandDigitCount - 1)
        _NSDecimalRound(&rounded, &quotient, scale, .bankers)
        return ExchangeRate(unchecked: rounded)
    }

    /// The rate for going through an intermediate currency: this rate times `next`.
    public func then(_ next: ExchangeRate) -> ExchangeRate { ExchangeRate(unchecked: value * next.value) }

    /// Plain decimal notation, no exponent.
    public var decimalString: String { value.description }
    public var description: String { decimalString }

    public static func < (lhs: ExchangeRate, rhs: ExchangeRate) -> Bool { lhs.value < rhs.value }
}

extension Decimal {
    /// Digits in the significand (the significand of 161.25 is 16125: 5 digits).
    var significandDigitCount: Int {
        significand.magnitude.description.filter(\.isNumber).count
    }
}

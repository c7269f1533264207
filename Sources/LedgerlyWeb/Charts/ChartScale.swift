import Foundation

/// Maps exact decimal values onto pixels (D513): the arithmetic stays in `Decimal` (money is
/// never a Double), and only the final coordinate becomes a number with one decimal place for
/// the SVG, where a tenth of a pixel is below what a screen shows.
public struct ChartScale: Sendable, Equatable {
    public let low: Decimal
    public let high: Decimal
    /// The pixel `low` maps to and the one `high` maps to (`from` > `to` for a y axis, which grows
    /// downwards in SVG).
    public let from: Decimal
    public let to: Decimal

    /// A scale covering `values` and zero (a bar or a net worth reads against zero), widened to
    /// one unit when every value is the same so nothing divides by zero.
    public init(covering values: [Decimal], includeZero: Bool = true, from: Decimal, to: Decimal) {
        var low = values.min() ?? 0
        var high = values.max() ?? 0
        if includeZero {
            low = Swift.min(low, 0)
            high = Swift.max(high, 0)
        }
        if low == high { high = low + 1 }
        self.init(low: low, high: high, from: from, to: to)
    }

    public init(low: Decimal, high: Decimal, from: Decimal, to: Decimal) {
        self.low = low
        self.high = high
        self.from = from
        self.to = to
    }

    /// The exact position of `value` (values outside the range land outside the pixels).
    public func position(_ value: Decimal) -> Decimal {
        from + (value - low) / (high - low) * (to - from)
    }

    /// `position` as SVG writes it: one decimal place.
    public func pixel(_ value: Decimal) -> String { Self.pixelText(position(value)) }

    /// `count` + 1 evenly spaced values from `low` to `high`, each rounded to `places` decimals
    /// for its label (the grid line is drawn at the rounded value, so label and line agree).
    public func ticks(count: Int, places: Int) -> [Decimal] {
        guard count > 0 else { return [low] }
        return (0...count).map { index in
            Self.rounded(low + (high - low) * Decimal(index) / Decimal(count), places: places)
        }
    }

    /// Decimals for the labels of `ticks(count:)`: none when every step is whole, else two
    /// (a range of 0…1 reads 0.25, 0.50, … rather than 0, 0, 1, 1).
    public func tickPlaces(count: Int) -> Int {
        let step = (high - low) / Decimal(max(count, 1))
        return step == Self.rounded(step, places: 0) ? 0 : 2
    }

    /// A coordinate with one decimal place, "-0.0" written "0".
    public static func pixelText(_ value: Decimal) -> String {
        let tenth = rounded(value, places: 1)
        let text = "\(tenth)"
        return text == "-0" ? "0" : text
    }

    public static func rounded(_ value: Decimal, places: Int) -> Decimal {
        var source = value
        var result = Decimal()
        NSDecimalRound(&result, &source, places, .plain)
        return result
    }
}

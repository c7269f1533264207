import Foundation

/// One value of a chart and the label its axis and its table show ("2026-11", "Nov").
public struct ChartPoint: Sendable, Equatable {
    public let label: String
    public let value: Decimal

    public init(label: String, value: Decimal) {
        self.label = label
        self.value = value
    }
}

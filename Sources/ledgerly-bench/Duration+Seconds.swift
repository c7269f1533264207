extension Duration {
    /// Seconds as a floating-point figure, for printing rates (a benchmark's timing, not money).
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// Whole microseconds, for printing latencies.
    var microseconds: Int { Int(components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000) }
}

extension Duration {
    /// Milliseconds as a floating-point figure, for printing wall times.
    var milliseconds: Double { seconds * 1_000 }
}

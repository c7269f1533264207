import LedgerlyTesting

/// The fuzzer's choices, from a `SplitMix` generator: a run is repeatable from its seed, which a
/// failure prints.
struct FuzzRandom {
    private var generator: SplitMix

    init(seed: UInt64) { generator = SplitMix(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// 0 ..< bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

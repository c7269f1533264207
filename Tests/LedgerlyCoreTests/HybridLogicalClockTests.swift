import LedgerlyCore
import Testing

/// The sync clock: readings order as their text does, never go backwards, and stay after what
/// was received even when the wall clock is behind.
@Suite struct HybridLogicalClockTests {
    static let device = "6f1c2a9e-3b7d-4c0e-9a55-0d2f3e4b5a61"

    @Test func theTextFormRoundTripsAndSortsAsTheClock() throws {
        let readings = [
            HybridLogicalClock(milliseconds: 5, counter: 0, device: "b"),
            HybridLogicalClock(milliseconds: 5, counter: 1, device: "a"),
            HybridLogicalClock(milliseconds: 5, counter: 1, device: "b"),
            HybridLogicalClock(milliseconds: 1_764_000_000_000, counter: 0, device: "a"),
            HybridLogicalClock(milliseconds: 1_764_000_000_001, counter: 999_999, device: "a"),
        ]
        #expect(readings.map(\.description) == readings.map(\.description).sorted())
        #expect(readings == readings.sorted())
        for reading in readings { #expect(HybridLogicalClock(reading.description) == reading) }
        #expect(readings[3].description == "000001764000000000.000000.a")
        for bad in ["", "1.2.a", "001764000000000000.000000.", "00176400000000000x.000000.a", "001764000000000000.00000.a"] {
            #expect(HybridLogicalClock(bad) == nil, "\(bad)")
        }
    }

    @Test func ticksMoveForwardWhateverTheWallClockDoes() throws {
        var clock = HybridLogicalClock.zero(device: Self.device)
        clock = try clock.tick(now: 1_000)
        #expect(clock == HybridLogicalClock(milliseconds: 1_000, counter: 0, device: Self.device))
        let same = try clock.tick(now: 1_000)
        #expect(same > clock && same.counter == 1)
        let behind = try same.tick(now: 10)  // the wall clock went back
        #expect(behind > same && behind.milliseconds == 1_000)
        #expect(try behind.tick(now: 2_000) == HybridLogicalClock(milliseconds: 2_000, counter: 0, device: Self.device))
    }

    @Test func afterReceivingTheNextLocalChangeSortsAfterWhatWasReceived() throws {
        let local = HybridLogicalClock(milliseconds: 1_000, counter: 3, device: "a")
        let remote = HybridLogicalClock(milliseconds: 9_000, counter: 7, device: "b")
        let seen = local.receiving(remote)
        #expect(seen.device == "a")
        let next = try seen.tick(now: 1_500)  // this device's wall clock is far behind
        #expect(next > remote)
        #expect(local.receiving(HybridLogicalClock(milliseconds: 10, counter: 0, device: "b")) == local)
    }

    @Test func aMillionReadingsInOneMillisecondAreRefused() throws {
        let full = HybridLogicalClock(milliseconds: 7, counter: 999_999, device: "a")
        #expect(throws: HybridClockError.counterExhausted(milliseconds: 7)) { try full.tick(now: 7) }
        #expect(try full.tick(now: 8).counter == 0)
    }
}

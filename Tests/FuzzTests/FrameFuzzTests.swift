import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
@testable import LedgerlyStore
import Logging
import Testing

/// The in-tree fuzzer (issue 12, "Close the classes"): every request example in `protocol/` and
/// the hand-made seeds in `Tests/FuzzTests/Corpus` are mutated and sent to the store's router on
/// a real database. A crash fails the run (it kills the test process); so does a reply that is
/// not strict JSON, an error code the protocol does not have, an `re` that does not echo a
/// readable id, a frame accepted that breaks the JSON rules (checked by `ReferenceJSON`, written
/// apart from the services' checker), and an accepted value that is not what the protocol allows.
///
/// CI runs `LEDGERLY_FUZZ_EXECUTIONS` (default 4,000) mutations from a fixed seed; a long run:
/// `LEDGERLY_FUZZ_EXECUTIONS=1000000 LEDGERLY_FUZZ_SEED=$RANDOM swift test --filter FrameFuzzTests`.
@Suite struct FrameFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let executions = Int(environment["LEDGERLY_FUZZ_EXECUTIONS"] ?? "") ?? 4_000
    static let seed = UInt64(environment["LEDGERLY_FUZZ_SEED"] ?? "") ?? 20_261_123
    static let protocolFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("protocol")
    static let corpusFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    /// Request examples (not replies, not events) and the hand-made seeds.
    static func seeds() throws -> [Data] {
        var seeds: [Data] = []
        for folder in [protocolFolder.appendingPathComponent("examples"), corpusFolder] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                // The corpus holds requests only, some deliberately unreadable.
                if folder == corpusFolder { seeds.append(data); continue }
                guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let type = object["type"] as? String,
                      type != "error", !type.hasSuffix(".ok")
                else { continue }
                seeds.append(data)
            }
        }
        return seeds
    }

    @Test func mutatedFramesAreAnsweredWithinTheRules() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try StoreDatabase(url: folder.appendingPathComponent("ledgerly.sqlite"), durability: .normal)
        let router = try StoreRouter(database: database, startedAt: Timestamp.now(), logger: Logger(label: "fuzz"))
        let seeds = try Self.seeds()
        #expect(seeds.count > 60)
        // The seeds first, unchanged: they create the wallets, categories and rates the mutated
        // frames refer to by id, and the corpus's own cases are judged as they are.
        var failures: [String] = []
        for seed in seeds {
            if let problem = FrameOracle.check(request: seed, reply: router.handle(seed).reply) {
                failures.append("seed: \(problem)\n  frame: \(FrameOracle.show(seed))")
            }
        }
        var mutator = FrameMutator(random: FuzzRandom(seed: Self.seed))
        for execution in 0..<Self.executions where failures.count < 10 {
            let frame = mutator.mutate(mutator.random.pick(seeds), other: mutator.random.pick(seeds))
            let reply = router.handle(frame).reply
            if let problem = FrameOracle.check(request: frame, reply: reply) {
                failures.append("execution \(execution) (seed \(Self.seed)): \(problem)\n  frame: \(FrameOracle.show(frame))\n  reply: \(FrameOracle.show(reply))")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func textParsersAcceptOnlyWhatTheProtocolAllows() throws {
        var random = FuzzRandom(seed: Self.seed)
        let alphabet = Array("0123456789-.:TZ+ e,_x\u{0}\u{FEFF}")
        var failures: [String] = []
        let euro = try Currency(code: "EUR")
        for _ in 0..<(Self.executions * 5) where failures.count < 10 {
            let text: String
            if random.chance(50) {
                text = String((0..<random.below(30)).map { _ in random.pick(alphabet) })
            } else {
                var base = Array(random.pick(["2026-11-21", "2026-11-21T12:00:00.000Z", "2024-02-29T23:59:59+01:00", "12.50", "0.000000001", "1000000000", "175.68"]))
                if !base.isEmpty { base[random.below(base.count)] = random.pick(alphabet) }
                text = String(base)
            }
            if let money = try? Money(parsing: text, currency: euro) {
                if text.wholeMatch(of: /-?[0-9]+(\.[0-9]{1,2}0*)?/) == nil { failures.append("Money accepted '\(text.debugDescription)'") }
                if (try? Money(parsing: money.decimalString, currency: euro))?.minorUnits != money.minorUnits { failures.append("Money '\(text)' does not round-trip") }
            }
            if let date = LedgerDate(text), date.description != text { failures.append("LedgerDate accepted '\(text.debugDescription)' as \(date)") }
            if (try? ExchangeRate(parsing: text)) != nil, text.wholeMatch(of: /[0-9]+(\.[0-9]+)?/) == nil { failures.append("ExchangeRate accepted '\(text.debugDescription)'") }
            if Timestamp.parse(text) != nil, !FrameOracle.isStrictMoment(text) { failures.append("Timestamp accepted '\(text.debugDescription)'") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

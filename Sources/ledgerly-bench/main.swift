import ArgumentParser
import LedgerlyStore

/// `ledgerly-bench`: performance figures printed from real processes. Run in release mode:
/// `swift run -c release ledgerly-bench writes`.
struct LedgerlyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledgerly-bench",
        abstract: "Ledgerly's benchmarks (run with -c release).",
        subcommands: [WriteBenchmark.self, ConversionBenchmark.self, ECBImportBenchmark.self, AlertBenchmark.self, LedgerBenchmark.self, ChaosBenchmark.self, InvestBenchmark.self, NetWorthBenchmark.self, SyncBenchmark.self],
        defaultSubcommand: WriteBenchmark.self)
}

// The store's SQLite settings, so the limits measured in this process are SQLite as the store runs it.
SQLiteProcessSettings.apply()
LedgerlyBench.main()

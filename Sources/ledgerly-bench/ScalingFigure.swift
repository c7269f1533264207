/// One row of `ledgerly-bench ledger`'s scaling table: what is measured, in which unit, issue
/// 16's target for it, and the machine limit measured in the same run that it is read against.
/// The rows the benchmark prints are the constants below; a new row is one more constant (or an
/// ad-hoc figure) and one `ScalingTable.record` where it is measured.
struct ScalingFigure: Hashable, Sendable {
    enum Unit: String, Sendable, Codable {
        case milliseconds = "ms", seconds = "s", microseconds = "µs", megabytes = "MB", perSecond = "/s", times = "×"

        /// Seconds per unit, to compare a time with a limit given in another time unit; nil for
        /// units that are not times.
        var seconds: Double? {
            switch self {
            case .milliseconds: 1e-3
            case .seconds: 1
            case .microseconds: 1e-6
            case .megabytes, .perSecond, .times: nil
            }
        }
    }

    /// Met when the figure at the largest scale is at most (times, memory) or at least (rates) this.
    enum Target: Hashable, Sendable {
        case atMost(Double)
        case atLeast(Double)

        func isMet(by value: Double) -> Bool {
            switch self {
            case .atMost(let bound): value <= bound
            case .atLeast(let bound): value >= bound
            }
        }
    }

    let name: String
    let unit: Unit
    let target: Target?
    /// The name of the limit row this figure is read against: the table prints that row right
    /// under this one and the figure's share of it in each cell.
    let limit: String?
    /// A limit of the machine (not a Ledgerly figure): it has no target and no mark.
    let isLimit: Bool

    init(_ name: String, _ unit: Unit, target: Target? = nil, limit: ScalingFigure? = nil) {
        self.name = name
        self.unit = unit
        self.target = target
        self.limit = limit?.name
        self.isLimit = false
    }

    private init(limit name: String, _ unit: Unit) {
        self.name = name
        self.unit = unit
        self.target = nil
        self.limit = nil
        self.isLimit = true
    }

    // MARK: The machine's own limits, measured in the same run

    static let sqliteInsertLimit = ScalingFigure(limit: "limit: plain SQLite insert of the same rows, 5,000 a transaction", .perSecond)
    /// The same rows into the store's own `transactions` table, indexes and all (D369).
    static let sqliteStoreSchemaLimit = ScalingFigure(limit: "limit: the same rows into the store's own schema (indexes, keys)", .perSecond)
    static let zeroMQLimit = ScalingFigure(limit: "limit: bare ZeroMQ REQ/REP round trip, ipc, in-process", .microseconds)
    static let swiftStartLimit = ScalingFigure(limit: "limit: a Swift binary that does nothing, start to exit", .milliseconds)

    // MARK: Ledgerly's figures, with issue 16's targets

    /// 1 M transactions in ≤ 10 s, read as a rate so that it applies at every scale (bulk paths are linear).
    static let loadRate = ScalingFigure("load through tx.import, transactions/s", .perSecond, target: .atLeast(100_000), limit: sqliteStoreSchemaLimit)
    static let loadTime = ScalingFigure("load through tx.import, wall time", .seconds)
    static let version = ScalingFigure("ledgerly --version", .milliseconds, target: .atMost(8), limit: swiftStartLimit)
    static let balanceCLI = ScalingFigure("ledgerly report balance", .milliseconds, target: .atMost(12))
    static let categoriesMonthlyCLI = ScalingFigure("ledgerly report categories --monthly", .milliseconds, target: .atMost(15))
    static let categoriesCLI = ScalingFigure("ledgerly report categories", .milliseconds)
    static let cashflowCLI = ScalingFigure("ledgerly report cashflow", .milliseconds, target: .atMost(15))
    static let payeesCLI = ScalingFigure("ledgerly report payees", .milliseconds, target: .atMost(20))
    static let txListCLI = ScalingFigure("ledgerly tx list --category Food --from 2026-01-01", .milliseconds, target: .atMost(15))
    static let cliPeakRSS = ScalingFigure("ledgerly CLI peak RSS, largest of the commands above", .megabytes)
    static let balanceTrip = ScalingFigure("report.balance round trip", .milliseconds, target: .atMost(2), limit: zeroMQLimit)
    /// `report categories` with and without `--monthly` send the same request (the CLI lays the months out).
    static let categoriesTrip = ScalingFigure("report.categories round trip (the --monthly request)", .milliseconds, target: .atMost(5), limit: zeroMQLimit)
    static let cashflowTrip = ScalingFigure("report.cashflow round trip", .milliseconds, target: .atMost(5), limit: zeroMQLimit)
    static let payeesTrip = ScalingFigure("report.payees round trip", .milliseconds, target: .atMost(10), limit: zeroMQLimit)
    static let txListTrip = ScalingFigure("tx.list round trip (Food, from 2026-01-01, 50)", .milliseconds, limit: zeroMQLimit)
    static let storePeakRSS = ScalingFigure("store peak RSS, load and reports", .megabytes, target: .atMost(100))
    static let databaseSize = ScalingFigure("database with its WAL", .megabytes)
    static let coldStartReply = ScalingFigure("store cold start: first reply", .milliseconds)
    static let coldStartReport = ScalingFigure("store cold start: first category report", .milliseconds, target: .atMost(30))
    static let coldStartPeakRSS = ScalingFigure("store peak RSS after a cold start and one report", .megabytes, target: .atMost(100))
    /// The bulk paths' targets are issue 16's times at a million (export ≤ 5 s, restore ≤ 20 s),
    /// read as rates like the load's, so that they apply at every scale.
    static let exportJournalRate = ScalingFigure("ledgerly export journal, transactions/s", .perSecond, target: .atLeast(200_000))
    static let exportJournal = ScalingFigure("ledgerly export journal, wall time", .seconds)
    static let exportJSONRate = ScalingFigure("ledgerly export json, transactions/s", .perSecond, target: .atLeast(200_000))
    static let exportJSON = ScalingFigure("ledgerly export json, wall time", .seconds)
    static let exportCSV = ScalingFigure("ledgerly export csv, wall time", .seconds)
    static let exportCLIPeakRSS = ScalingFigure("ledgerly CLI peak RSS, largest of the exports", .megabytes, target: .atMost(100))
    static let importJSONRate = ScalingFigure("ledgerly import json of that export into a new home, transactions/s", .perSecond, target: .atLeast(50_000))
    static let importJSON = ScalingFigure("ledgerly import json, wall time", .seconds)
    static let importCLIPeakRSS = ScalingFigure("ledgerly import json: CLI peak RSS", .megabytes, target: .atMost(150))
    static let importStorePeakRSS = ScalingFigure("ledgerly import json: store peak RSS", .megabytes, target: .atMost(150))

    /// A peer's time for the report it is compared with (`ledger bal`, `hledger bal -M expenses`).
    static func peer(_ command: String) -> ScalingFigure { ScalingFigure(command, .seconds) }

    /// How many times longer the peer took than Ledgerly's CLI for the same report.
    static func peerRatio(_ command: String, _ counterpart: String) -> ScalingFigure { ScalingFigure("\(command) ÷ ledgerly \(counterpart)", .times) }
}

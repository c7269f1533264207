import LedgerlyProtocol

/// An `invest` command that records one trade (buy, sell, transfer, dividend) and says what it
/// did in one sentence (`TradeDescription`), naming the accounts and the wallet it looked up to
/// send the request; `--json` prints the trade as the store sent it (D560).
protocol TradeCommand: ReplyCommand where Reply == Resolved<TradeRecord, TradeNames> {}

extension TradeCommand {
    func render(_ reply: Resolved<TradeRecord, TradeNames>, gateway: Gateway) throws {
        print(TradeDescription.sentence(reply.body, accounts: reply.context.accounts, wallets: reply.context.wallets))
    }
}

/// Names by id of the accounts and wallet a trade command found, for its sentence.
struct TradeNames {
    var accounts: [Int64: String]
    var wallets: [Int64: String] = [:]
}

import ArgumentParser
import LedgerlyProtocol

/// How many rows go to the store in one `tx.import`: each batch is one SQL transaction, so a
/// larger batch loads faster and a smaller one shows progress more often.
struct ImportBatchOptions: ParsableArguments {
    @Option(help: "Rows per batch sent to the store (1 to \(TransactionImportRequest.maximumItems)).") var batchSize = 2_000

    func validate() throws {
        guard (1...TransactionImportRequest.maximumItems).contains(batchSize) else {
            throw ValidationError("--batch-size must be 1 to \(TransactionImportRequest.maximumItems)")
        }
    }
}

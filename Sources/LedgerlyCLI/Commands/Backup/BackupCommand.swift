import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly backup FILE`: a consistent copy of the database, taken by the store while it keeps
/// serving (SQLite's online backup), checked, and never over an existing file.
struct BackupCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the ledger's database to FILE while Ledgerly runs.",
        discussion: """
            The store copies its database with SQLite's online backup, checks the copy (PRAGMA integrity_check) \
            and writes it under FILE, which must not exist. Every change acknowledged before this command answers \
            is in the copy. Put a copy back with `ledgerly restore FILE`.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Where to write the copy (a new file).", completion: .file()) var file: String

    /// A large database takes seconds to copy: wait for it instead of retrying.
    static var patientMilliseconds: Int? { 600_000 }

    func reply(from gateway: Gateway) throws -> LedgerBackupReply {
        try gateway.call(LedgerBackupRequest(path: URL(fileURLWithPath: file).standardizedFileURL.path))
    }

    func render(_ reply: LedgerBackupReply, gateway: Gateway) throws {
        // Tenths of a MiB, rounded half up, in integers ("%.1f" is in the full Foundation).
        let tenths = (reply.bytes * 10 + 524_288) / 1_048_576
        print("Backed up to \(reply.path): \(tenths / 10).\(tenths % 10) MB, change log up to seq \(reply.lastSeq), integrity \(reply.integrity).")
    }
}

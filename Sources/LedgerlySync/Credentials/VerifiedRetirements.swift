import Foundation
import LedgerlyRuntime

/// The retirement records this device verified while it held the retired ledger's key: the one
/// its own rekey sealed, or the one it opened when it re-joined (D533). Kept in
/// `<home>/sync/retirements.json` (mode 0600), because the old key is not kept: once a device
/// holds only the new key it cannot open the old ledger's record again, and `sync devices` would
/// otherwise have only the hub's clear columns — which the hub can forge — to say which ledger
/// was retired and which devices were named with `--retire`.
///
/// It holds ids only (ledgers and devices), never a key.
public enum VerifiedRetirements {
    public static func file(home: URL) -> URL { SyncCredentials.folder(home: home).appendingPathComponent("retirements.json") }

    /// The records kept, oldest first; none when the file does not exist.
    public static func load(home: URL) throws(CredentialsError) -> [LedgerRetirement] {
        let path = file(home: home).path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let data = try SecureFile.readPrivate(path)
        do {
            return try JSONDecoder().decode([LedgerRetirement].self, from: data)
        } catch {
            throw .malformed(path: path, reason: "not the list of retirement records Ledgerly writes")
        }
    }

    /// Adds `record` (a record of the same retired ledger replaces the one kept).
    public static func add(_ record: LedgerRetirement, home: URL) throws(CredentialsError) {
        var records = try load(home: home).filter { $0.retiredLedgerId != record.retiredLedgerId }
        records.append(record)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(records)
        } catch {
            throw .unwritable(path: file(home: home).path, reason: "\(error)")
        }
        try SecureFile.makePrivateFolder(SyncCredentials.folder(home: home))
        try SecureFile.writeAtomically(data + Data("\n".utf8), to: file(home: home))
    }
}

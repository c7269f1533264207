import Foundation
import LedgerlyRuntime

/// A rekey between its hub transaction and its new credentials (D534): the retirement record it
/// writes (old ledger, new ledger, this device, the devices named with `--retire`) and the new
/// ledger's key, in `<home>/sync/rekey.json` (mode 0600, like `ledger.key`).
///
/// Why: the new key comes from the new passphrase, which is never stored. A rekey cut short after
/// the hub transaction committed (a `kill -9`, a crash, the store not answering) left the new
/// ledger in force and this device with the old key only, so it had to be re-joined by hand like
/// any other device. With the key written first, the next round finishes it: when the hub holds
/// this very retirement (opened with the old key, naming this new ledger), the store is moved to
/// the new ledger and the credentials written; when it holds none, the hub transaction never
/// committed and the file is dropped (the old ledger is untouched: run the rekey again).
public struct RekeyInProgress: Codable, Sendable {
    public let record: LedgerRetirement
    /// The new ledger's key bytes.
    let key: [UInt8]

    public init(record: LedgerRetirement, key: LedgerKey) {
        self.record = record
        self.key = key.bytes
    }

    public func ledgerKey() throws(SyncCryptoError) -> LedgerKey { try LedgerKey(bytes: key) }

    public static func file(home: URL) -> URL { SyncCredentials.folder(home: home).appendingPathComponent("rekey.json") }

    public func save(home: URL) throws(CredentialsError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(self)
        } catch {
            throw .unwritable(path: Self.file(home: home).path, reason: "\(error)")
        }
        try SecureFile.makePrivateFolder(SyncCredentials.folder(home: home))
        try SecureFile.writeAtomically(data, to: Self.file(home: home))
    }

    /// The rekey in progress, or nil when none is.
    public static func load(home: URL) throws(CredentialsError) -> RekeyInProgress? {
        let path = file(home: home).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try SecureFile.readPrivate(path)
        do {
            return try JSONDecoder().decode(RekeyInProgress.self, from: data)
        } catch {
            throw .malformed(path: path, reason: "not the rekey record Ledgerly writes")
        }
    }

    public static func remove(home: URL) throws(CredentialsError) {
        do {
            try FileManager.default.removeItem(at: file(home: home))
        } catch CocoaError.fileNoSuchFile {
            return
        } catch {
            throw .unwritable(path: file(home: home).path, reason: "\(error.localizedDescription)")
        }
    }
}

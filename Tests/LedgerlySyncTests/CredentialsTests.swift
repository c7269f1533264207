import Foundation
import LedgerlyRuntime
import LedgerlySync
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Credential and passphrase files")
struct CredentialsTests {
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerly-credentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func credentials() throws -> SyncCredentials {
        SyncCredentials(
            hub: try HubAddress(parsing: "postgres://sync:hub-password@127.0.0.1:5432/hub?sslmode=require"),
            ledgerId: UUID(), deviceId: UUID(),
            key: try LedgerKey(bytes: (0..<32).map { UInt8($0) })
        )
    }

    func mode(_ url: URL) -> UInt16 {
        var info = stat()
        stat(url.path, &info)
        return UInt16(info.st_mode & 0o777)
    }

    @Test func savedFilesArePrivateAndReadBack() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try SyncCredentials.load(home: home) == nil)
        let saved = try credentials()
        try saved.save(home: home)
        #expect(mode(SyncCredentials.folder(home: home)) == 0o700)
        #expect(mode(SyncCredentials.hubFile(home: home)) == 0o600)
        #expect(mode(SyncCredentials.keyFile(home: home)) == 0o600)
        let loaded = try #require(try SyncCredentials.load(home: home))
        #expect(loaded.hub == saved.hub)
        #expect(loaded.ledgerId == saved.ledgerId)
        #expect(loaded.deviceId == saved.deviceId)
        #expect(loaded.key.bytes == saved.key.bytes)
        #expect(try Data(contentsOf: SyncCredentials.keyFile(home: home)).count == 32)
        #expect(!"\(loaded)".contains("hub-password"))
        // Saving again replaces atomically and leaves no temporary file behind.
        try saved.save(home: home)
        #expect(try FileManager.default.contentsOfDirectory(atPath: SyncCredentials.folder(home: home).path).sorted() == ["hub.json", "ledger.key"])
        try SyncCredentials.remove(home: home)
        #expect(try SyncCredentials.load(home: home) == nil)
    }

    @Test func anOpenFolderIsTightenedOnSave() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: SyncCredentials.folder(home: home), withIntermediateDirectories: true)
        chmod(SyncCredentials.folder(home: home).path, 0o755)
        try credentials().save(home: home)
        #expect(mode(SyncCredentials.folder(home: home)) == 0o700)
    }

    @Test(arguments: [0o640, 0o604, 0o660, 0o610] as [UInt16])
    func groupOrOtherPermissionsAreRefused(mode: UInt16) throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try credentials().save(home: home)
        for file in [SyncCredentials.keyFile(home: home), SyncCredentials.hubFile(home: home)] {
            chmod(file.path, mode_t(mode))
            #expect(throws: CredentialsError.tooOpen(path: file.path, mode: mode)) { try SyncCredentials.load(home: home) }
            chmod(file.path, 0o600)
        }
        #expect(try SyncCredentials.load(home: home) != nil)
        let message = CredentialsError.tooOpen(path: "/h/sync/ledger.key", mode: 0o640).description
        #expect(message.contains("0640") && message.contains("chmod 600 /h/sync/ledger.key"))
    }

    @Test func aSymbolicLinkOrAMissingKeyIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try credentials().save(home: home)
        let key = SyncCredentials.keyFile(home: home)
        let elsewhere = home.appendingPathComponent("elsewhere.key")
        try FileManager.default.moveItem(at: key, to: elsewhere)
        #expect(throws: CredentialsError.missing(path: key.path)) { try SyncCredentials.load(home: home) }
        try FileManager.default.createSymbolicLink(at: key, withDestinationURL: elsewhere)
        #expect(throws: CredentialsError.notARegularFile(path: key.path)) { try SyncCredentials.load(home: home) }
    }

    @Test func passphraseFileFirstLine() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("passphrase")
        func write(_ text: String, mode: mode_t = 0o600) throws {
            try Data(text.utf8).write(to: file)
            chmod(file.path, mode)
        }
        try write("  open sesame \nsecond line\n")
        #expect(try PassphraseFile.read(path: file.path) == "  open sesame ")
        try write("crlf\r\n")
        #expect(try PassphraseFile.read(path: file.path) == "crlf")
        try write("no newline")
        #expect(try PassphraseFile.read(path: file.path) == "no newline")
        try write("group may read\n", mode: 0o640)
        #expect(try PassphraseFile.read(path: file.path) == "group may read")
        try write("\nsecond\n")
        #expect(throws: CredentialsError.emptyPassphrase(path: file.path)) { try PassphraseFile.read(path: file.path) }
        try write("")
        #expect(throws: CredentialsError.emptyPassphrase(path: file.path)) { try PassphraseFile.read(path: file.path) }
        try write("everyone may read\n", mode: 0o644)
        #expect(throws: CredentialsError.passphraseFileReadableByOthers(path: file.path, mode: 0o644)) { try PassphraseFile.read(path: file.path) }
        #expect(throws: CredentialsError.missing(path: home.appendingPathComponent("nope").path)) {
            try PassphraseFile.read(path: home.appendingPathComponent("nope").path)
        }
    }
}

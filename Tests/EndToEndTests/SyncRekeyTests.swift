import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlySync
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 44, finding 6: `ledgerly sync rekey`, a re-join, a device left out, and `sync devices`,
    /// with the real binaries and a real PostgreSQL hub (D480–D483).
    @Suite struct SyncRekeyTests {
        typealias Device = SyncTests.Device
        static let newPassphrase = "tavumi kelopa rinoza bedufa sorime"

        /// A 0600 file in the device's home holding `text`.
        static func file(_ name: String, _ text: String, on device: Device) throws -> URL {
            let file = device.harness.home.root.appendingPathComponent(name)
            try Data((text + "\n").utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            return file
        }

        /// An export with every `id` taken out and every list in a fixed order: what two devices
        /// must agree on (local ids are each device's own).
        static func withoutLocalIds(_ export: String) throws -> String {
            func text(_ value: Any) -> String {
                (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])).map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
            func strip(_ value: Any) -> Any {
                if let object = value as? [String: Any] { return object.filter { $0.key != "id" }.mapValues(strip) }
                if let list = value as? [Any] { return list.map(strip).sorted { text($0) < text($1) } }
                return value
            }
            return text(strip(try JSONSerialization.jsonObject(with: Data(export.utf8))))
        }

        @Test func aRekeyMovesTheLedgerAndLeavesAnOldKeyBehind() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            #expect(try a.cli("wallet", "add", "Cash", "--currency", "EUR", "--starting-balance", "50").status == 0)
            _ = try a.cli("tx", "add", "--wallet", "Cash", "--amount", "4.20", "--notes", "Before the rekey", "--date", "2026-11-02")
            let b = try a.enableAndJoin(hub)
            let c = try Device.joining(hub)
            try Device.meet([a, b, c])
            let oldLedger = try #require(a.status().ledgerId)

            // The same strength bar as a new ledger's, and the passphrase never in argv: there is
            // no option to give it there.
            let weak = try Self.file("weak.txt", "abc", on: a)
            let refused = try a.cli("sync", "rekey", "--passphrase-file", weak.path, "--yes")
            #expect(refused.status != 0 && refused.stderr.contains("passphrase"), "\(refused.stderr)")
            let inArgv = try a.cli("sync", "rekey", "--passphrase", Self.newPassphrase, "--yes")
            #expect(inArgv.status == 64 && inArgv.stderr.contains("--passphrase"), "\(inArgv.status) \(inArgv.stderr)")
            #expect(try a.status().ledgerId == oldLedger)

            let newFile = try Self.file("new-passphrase.txt", Self.newPassphrase, on: a)
            let rekeyed = try a.cli("sync", "rekey", "--passphrase-file", newFile.path, "--yes", "--retire", try #require(c.status().deviceId))
            #expect(rekeyed.status == 0, "\(rekeyed.stderr)")
            let newLedger = try #require(a.status().ledgerId)
            #expect(newLedger != oldLedger)
            _ = try a.cli("tx", "add", "--wallet", "Cash", "--amount", "7.77", "--notes", "After the rekey", "--date", "2026-11-03")
            try a.waitUntilSynced()

            // A new device joining the new ledger gets the whole ledger from A's re-sent copy.
            let d = try Device(setUp: false)
            try Data((Self.newPassphrase + "\n").utf8).write(to: d.passphraseFile)
            let joinedNew = try d.enable(hub)
            #expect(joinedNew.status == 0, "\(joinedNew.stderr)")
            try d.waitUntilSynced()
            #expect(try d.status().ledgerId == newLedger)
            #expect(try Self.withoutLocalIds(d.export()) == Self.withoutLocalIds(a.export()))

            // B learns from the hub that it must re-join, keeps working, and its change travels.
            try b.harness.waitFor("B to see the retirement", seconds: 30) {
                _ = try? b.cli("sync", "now")
                return try b.status().state == "rejoin"
            }
            let told = try b.cli("sync", "status")
            #expect(told.stdout.contains("Sync: re-join needed") && told.stdout.contains("ledgerly sync enable --url"), "\(told.stdout)")
            let waiting = try b.cli("tx", "add", "--wallet", "Cash", "--amount", "1.10", "--notes", "Made while waiting", "--date", "2026-11-04")
            #expect(waiting.status == 0, "\(waiting.stderr)")
            try Data((Self.newPassphrase + "\n").utf8).write(to: b.passphraseFile)
            let rejoined = try b.enable(hub)
            #expect(rejoined.status == 0, "\(rejoined.stderr)")
            #expect(try b.status().ledgerId == newLedger)
            try Device.meet([a, b])
            // Local ids differ (each device numbered the two transactions in the order it got them).
            let exportA = try a.export()
            #expect(try Self.withoutLocalIds(exportA) == Self.withoutLocalIds(b.export()))
            #expect(exportA.contains("Made while waiting") && exportA.contains("After the rekey") && exportA.contains("Before the rekey"))

            // C keeps the old key: told to re-join, it gets nothing written after the rekey, and
            // the new ledger's rows and key check do not open with its key.
            try c.harness.waitFor("C to see the retirement", seconds: 30) {
                _ = try? c.cli("sync", "now")
                return try c.status().state == "rejoin"
            }
            #expect(try !c.export().contains("After the rekey"))
            let oldKey = try LedgerKey(bytes: Array(Data(contentsOf: c.harness.home.root.appendingPathComponent("sync/ledger.key"))))
            let newId = try #require(UUID(uuidString: newLedger))
            let rows = try hub.psql("COPY (SELECT device_id, hlc, encode(sealed, 'hex') FROM ledgerly_messages WHERE ledger_id = '\(newLedger)') TO STDOUT;",
                                    database: hub.database).split(separator: "\n")
            #expect(rows.count > 2)
            let seal = MessageSeal(key: oldKey, ledgerId: newId)
            for row in rows {
                let cells = row.split(separator: "\t").map(String.init)
                let sealed = Data(stride(from: 0, to: cells[2].count, by: 2).map { UInt8(cells[2].dropFirst($0).prefix(2), radix: 16)! })
                #expect(throws: SyncCryptoError.self) { try seal.open(sealed, deviceId: UUID(uuidString: cells[0])!, hlc: cells[1]) }
            }
            let check = try hub.psql("COPY (SELECT encode(key_check, 'hex') FROM ledgerly_ledgers WHERE ledger_id = '\(newLedger)') TO STDOUT;", database: hub.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let checkBytes = Data(stride(from: 0, to: check.count, by: 2).map { UInt8(check.dropFirst($0).prefix(2), radix: 16)! })
            #expect(throws: SyncCryptoError.wrongPassphrase) { try oldKey.verify(keyCheck: checkBytes, ledgerId: newId) }
            // What C writes now stays with C: nothing goes into either ledger, A does not get it.
            let deviceC = try #require(c.status().deviceId)
            let rowsOfC = "SELECT count(*) FROM ledgerly_messages WHERE device_id = '\(deviceC)'"
            let before = try hub.psql(rowsOfC, database: hub.database)
            _ = try c.cli("tx", "add", "--wallet", "Cash", "--amount", "9.99", "--notes", "Written by the lost device", "--date", "2026-11-05")
            _ = try c.cli("sync", "now")
            _ = try c.cli("sync", "now")
            #expect(try hub.psql(rowsOfC, database: hub.database) == before)
            #expect(try c.status().waitingOut > 0)
            try a.waitUntilSynced()
            #expect(try !a.export().contains("Written by the lost device"))

            // `sync devices`: A, B and C with their last contact; C retired, on the old ledger only.
            let listed = try a.cli("sync", "devices", "--json")
            #expect(listed.status == 0, "\(listed.stderr)")
            let devices = try JSONDecoder().decode(SyncDevicesReply.self, from: Data(listed.stdout.utf8)).devices
            let ids = try [a, b, c].map { try #require($0.status().deviceId) }
            for id in ids { #expect(devices.contains { $0.deviceId == id && $0.lastContact != nil }, "\(id) in \(devices)") }
            // D joined the new ledger only; C only the old one.
            let newDevice = try #require(d.status().deviceId)
            #expect(devices.filter { $0.ledger == "current" }.map(\.deviceId).sorted() == [ids[0], ids[1], newDevice].sorted())
            // A sealed the retirement itself, so it is verified there (D533)…
            #expect(devices.contains { $0.deviceId == ids[2] && $0.retired && $0.ledger == "retired" && $0.retirement == "verified" })
            #expect(try a.cli("sync", "devices").stdout.contains("retired"))
            // …and on B, which opened it with the old key when it re-joined; D never held the old
            // key, so the old ledger is the hub's say there and names no device retired.
            let seenByB = try JSONDecoder().decode(SyncDevicesReply.self, from: Data(b.cli("sync", "devices", "--json").stdout.utf8)).devices
            #expect(seenByB.contains { $0.deviceId == ids[2] && $0.retired && $0.retirement == "verified" }, "\(seenByB)")
            let seenByD = try JSONDecoder().decode(SyncDevicesReply.self, from: Data(d.cli("sync", "devices", "--json").stdout.utf8)).devices
            #expect(seenByD.contains { $0.deviceId == ids[2] && !$0.retired && $0.ledger == "retired" && $0.retirement == "unverified" }, "\(seenByD)")
        }
    }
}

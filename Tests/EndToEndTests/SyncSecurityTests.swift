import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 44, findings 1, 2 and 7 through the real `ledgerly`, `ledgerly-store` and
    /// `ledgerly-sync` with a real PostgreSQL hub (TLS with a self-signed certificate).
    @Suite struct SyncSecurityTests {
        static let passphrase = "orbit copper lantern meadow thistle"

        final class Device {
            let harness: ServiceHarness
            let passphraseFile: URL

            init(setUp: Bool = true) throws {
                harness = try ServiceHarness()
                try harness.start(.store)
                try harness.start(.sync, extraArguments: ["--round-interval", "1"])
                if setUp { try harness.setUp() }
                passphraseFile = try Self.write("passphrase.txt", SyncSecurityTests.passphrase, in: harness)
            }

            /// A 0600 file in the home.
            func write(_ name: String, _ text: String) throws -> URL { try Self.write(name, text, in: harness) }

            static func write(_ name: String, _ text: String, in harness: ServiceHarness) throws -> URL {
                let file = harness.home.root.appendingPathComponent(name)
                try Data((text + "\n").utf8).write(to: file)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
                return file
            }

            /// The CLI with `HOME` in the device's home, so no `~/.pgpass` of the machine's user is read.
            func cli(_ arguments: [String], environment: [String: String] = [:]) throws -> ServiceHarness.CommandResult {
                try harness.cli(arguments, environment: ["HOME": harness.home.root.path].merging(environment) { $1 })
            }

            var hubFile: String { harness.home.root.appendingPathComponent("sync/hub.json").path }
        }

        /// Finding 2: a password in `--url` (seen by every local user in `ps`) is refused with how
        /// to give it instead; `--password-file` and `$PGPASSFILE` work, and the status names the
        /// transport and authentication (finding 1).
        @Test func thePasswordNeverGoesInTheCommandLine() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let certificate = try #require(hub.certificatePath)
            let device = try Device()
            let bare = "postgres://\(hub.user)@127.0.0.1:\(hub.port)/\(hub.database)?sslrootcert=\(certificate)"

            let inURL = try device.cli(["sync", "enable", "--url", hub.url(withPassword: true), "--passphrase-file", device.passphraseFile.path])
            #expect(inURL.status != 0)
            #expect(inURL.stderr.contains("--url holds a password") && inURL.stderr.contains("--password-file") && inURL.stderr.contains("~/.pgpass"), "\(inURL.stderr)")
            #expect(!inURL.stderr.contains(hub.password))
            #expect(!FileManager.default.fileExists(atPath: device.hubFile))

            // --password-file: the password goes to ledgerly-sync over its socket and into hub.json (0600).
            let passwordFile = try device.write("hub-password.txt", hub.password)
            let enabled = try device.cli(["sync", "enable", "--url", bare, "--password-file", passwordFile.path, "--passphrase-file", device.passphraseFile.path])
            #expect(enabled.status == 0, "\(enabled.stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: device.hubFile)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(try String(contentsOfFile: device.hubFile, encoding: .utf8).contains(hub.password))
            // What the last connection used, once a round (every second here) has reported it (D531).
            try device.harness.waitFor("a round to report its authentication", seconds: 20) {
                try device.cli(["sync", "status"]).stdout.contains("Authentication: SCRAM-SHA-256")
            }
            let status = try device.cli(["sync", "status"])
            #expect(status.stdout.contains("Transport: TLS, the hub's certificate and name verified against the certificate in \(certificate)"), "\(status.stdout)")
            #expect(!status.stdout.contains("Warning"))
            #expect(!status.stdout.contains(hub.password))

            // $PGPASSFILE: the CLI names the file in the URL, ledgerly-sync reads it at each connection.
            let other = try Device(setUp: false)
            let joined = try other.cli(["sync", "enable", "--url", bare, "--passphrase-file", other.passphraseFile.path], environment: ["PGPASSFILE": hub.passwordFilePath])
            #expect(joined.status == 0, "\(joined.stderr)")
            let kept = try String(contentsOfFile: other.hubFile, encoding: .utf8).replacingOccurrences(of: "\\/", with: "/")
            #expect(!kept.contains(hub.password) && kept.contains("passfile=\(hub.passwordFilePath)"), "\(kept)")
        }

        /// Finding 1: no sslmode means verified TLS, so a self-signed hub without `sslrootcert=`
        /// is refused; `sslmode=disable` connects in plain TCP and `sync status` warns.
        @Test func tlsIsVerifiedAndPlainTCPIsWarnedAbout() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let device = try Device()
            let untrusted = try device.cli(["sync", "enable", "--url", hub.url(trustCertificate: false), "--passphrase-file", device.passphraseFile.path])
            #expect(untrusted.status != 0)
            #expect(untrusted.stderr.contains("TLS") && untrusted.stderr.lowercased().contains("certificate"), "\(untrusted.stderr)")

            let plain = try device.cli(["sync", "enable", "--url", hub.url(sslmode: "disable"), "--passphrase-file", device.passphraseFile.path])
            #expect(plain.status == 0, "\(plain.stderr)")
            let status = try device.cli(["sync", "status"])
            #expect(status.stdout.contains("Transport: plain TCP, no TLS (sslmode=disable)"), "\(status.stdout)")
            #expect(status.stdout.contains("Warning: the hub connection is not encrypted"), "\(status.stdout)")
        }

        /// Finding 7: a weak passphrase cannot make a ledger (before, "a" was accepted); the
        /// suggestion the refusal points to is accepted.
        @Test func aNewLedgerNeedsAStrongPassphrase() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let device = try Device()
            for weak in ["a", "correct horse battery staple"] {
                let file = try device.write("weak.txt", weak)
                let refused = try device.cli(["sync", "enable", "--url", hub.url(), "--passphrase-file", file.path])
                #expect(refused.status != 0)
                #expect(refused.stderr.contains("too easy to guess") && refused.stderr.contains("ledgerly sync passphrase suggest"), "\(refused.stderr)")
            }
            #expect(try hub.psql("SELECT count(*) FROM ledgerly_ledgers", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines) == "0")

            let suggested = try device.cli(["sync", "passphrase", "suggest"])
            #expect(suggested.status == 0)
            let words = suggested.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(words.split(separator: "-").count == 6, "\(words)")
            let file = try device.write("strong.txt", words)
            let enabled = try device.cli(["sync", "enable", "--url", hub.url(), "--passphrase-file", file.path])
            #expect(enabled.status == 0, "\(enabled.stderr)")
        }
    }
}

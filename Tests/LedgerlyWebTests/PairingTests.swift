import Foundation
import LedgerlyCore
@testable import LedgerlyRuntime
@testable import LedgerlyWeb
import Logging
import Synchronization
import Testing

/// The pure parts of serving the home network (D590-D597): pairing codes, their expiry and single
/// use, the pairing rate limit, device tokens stored hashed, the device book, the certificate
/// kept and reused, and the 500 page that shows a reference instead of the error.
@Suite struct PairingTests {
    static func temporaryHome(_ label: String) throws -> LedgerlyHome {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(label)-\(RandomToken.make().prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return LedgerlyHome(root: root)
    }

    static func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func codesAreEightSymbolsWithoutLookAlikesTypedAnyWay() {
        let code = PairingCode.make()
        #expect(code.count == 8)
        #expect(PairingCode.normalized(code) == code)
        #expect(PairingCode.display("ABCD2345") == "ABCD-2345")
        #expect(PairingCode.normalized(" abcd-2345 ") == "ABCD2345")
        #expect(PairingCode.normalized("ABCD-234O") == nil, "O is not in the alphabet (0/O look alike)")
        #expect(PairingCode.normalized("ABCD234") == nil)
        #expect(PairingCode.normalized("../../etc") == nil)
        #expect(Set((0..<50).map { _ in PairingCode.make() }).count == 50)
    }

    @Test func aCodeWorksOnceAndNotAfterItExpires() throws {
        let home = try Self.temporaryHome("codes")
        defer { try? FileManager.default.removeItem(at: home.root) }
        let folder = PairingCodeFolder(home: home)
        let first = try folder.issue(now: 1_000)
        #expect(first.expiresAt == 1_000 + PairingCode.lifetimeSeconds)
        #expect(try Self.mode(folder.folder) == 0o700)
        #expect(try Self.mode(folder.folder.appendingPathComponent(first.code)) == 0o600)
        #expect(folder.consume(PairingCode.display(first.code).lowercased(), now: 1_000 + PairingCode.lifetimeSeconds))
        #expect(!folder.consume(first.code, now: 1_001), "used already")
        let late = try folder.issue(now: 1_000)
        #expect(!folder.consume(late.code, now: 1_001 + PairingCode.lifetimeSeconds), "expired")
        #expect(!folder.consume(late.code, now: 1_001), "an expired code is gone, not kept for later")
        let swept = try folder.issue(now: 1_000)
        folder.sweep(now: 2_000)
        #expect(!FileManager.default.fileExists(atPath: folder.folder.appendingPathComponent(swept.code).path))
    }

    @Test func pairingIsRateLimitedPerAddressAndOverall() {
        let limit = PairingRateLimit()
        let start = ContinuousClock.now
        for second in 0..<PairingRateLimit.perAddress {
            #expect(limit.attempt(from: "10.0.0.7", at: start + .seconds(second)) == .allowed)
        }
        // The sixth within a minute: refused until the first attempt is a minute old.
        #expect(limit.attempt(from: "10.0.0.7", at: start + .seconds(10)) == .refused(retryAfterSeconds: 50))
        // Others may still try, until all addresses together reach the overall limit.
        for index in 0..<(PairingRateLimit.overall - PairingRateLimit.perAddress) {
            #expect(limit.attempt(from: "10.0.0.\(20 + index)", at: start + .seconds(20)) == .allowed)
        }
        #expect(limit.attempt(from: "10.0.0.99", at: start + .seconds(20)) == .refused(retryAfterSeconds: 40))
        // A refused attempt is not counted: a minute after the first, one more is allowed.
        #expect(limit.attempt(from: "10.0.0.7", at: start + .seconds(60) + .milliseconds(1)) == .allowed)
        #expect(limit.attempt(from: "10.0.0.99", at: start + .seconds(81)) == .allowed)
    }

    @Test func deviceTokensAreStoredAsTheirSHA256() {
        let token = String(repeating: "0123456789abcdef", count: 4)
        #expect(DeviceToken.key(for: token) == "a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c8e")
        #expect(DeviceToken.key(for: nil) == nil)
        #expect(DeviceToken.key(for: "../x") == nil)
        #expect(DeviceToken.key(for: token.uppercased()) == nil)
    }

    @Test func devicesAreListedSeenAndRevoked() throws {
        let home = try Self.temporaryHome("devices")
        defer { try? FileManager.default.removeItem(at: home.root) }
        let book = PairedDeviceBook(home: home)
        let token = DeviceToken.make()
        let key = try #require(DeviceToken.key(for: token))
        try book.add(key: key, device: PairedDevice(id: "d1", name: "Firefox on Android", userAgent: "UA", pairedAt: 1_000, lastSeenAt: 1_000))
        let file = book.folder.appendingPathComponent("\(key).json")
        #expect(try Self.mode(file) == 0o600)
        #expect(try Self.mode(book.folder) == 0o700)
        #expect(!String(decoding: try Data(contentsOf: file), as: UTF8.self).contains(token), "the token itself is never stored")
        #expect(book.device(forKey: key)?.name == "Firefox on Android")
        // Seen again within a minute: the time stays; later: it moves.
        #expect(book.device(forKey: key, now: 1_030)?.lastSeenAt == 1_000)
        #expect(book.device(forKey: key, now: 5_000)?.lastSeenAt == 5_000)
        #expect(book.list().map(\.lastSeenAt) == [5_000])
        #expect(!book.revoke(id: "nope"))
        #expect(book.revoke(id: "d1"))
        #expect(book.device(forKey: key, now: 6_000) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "a touch after the revoke does not bring the file back")
        #expect(book.list().isEmpty)
    }

    @Test func theCertificateIsMadeOnceKeptPrivateAndReused() throws {
        let home = try Self.temporaryHome("tls")
        defer { try? FileManager.default.removeItem(at: home.root) }
        let paths = WebAccessPaths(home: home)
        let (made, created) = try WebCertificate.loadOrCreate(paths: paths, host: "10.0.0.2")
        #expect(created)
        #expect(try Self.mode(paths.privateKey) == 0o600)
        #expect(try Self.mode(paths.certificate) == 0o600)
        #expect(try Self.mode(paths.folder) == 0o700)
        #expect(made.fingerprint.split(separator: ":").count == 32)
        let (again, createdAgain) = try WebCertificate.loadOrCreate(paths: paths, host: "0.0.0.0")
        #expect(!createdAgain)
        #expect(again.fingerprint == made.fingerprint)
        _ = try again.serverConfiguration()
        // Half a pair is refused, never replaced in silence.
        try FileManager.default.removeItem(at: paths.privateKey)
        #expect(throws: WebConfigurationError.self) { try WebCertificate.loadOrCreate(paths: paths, host: "0.0.0.0") }
    }

    /// A 500 page names a reference, never the error's own text, which goes to the log (D597).
    @Test func anInternalErrorShowsAReferenceNotTheError() {
        struct Leaky: Error, CustomStringConvertible { var description: String { "SQLITE_CORRUPT at /home/someone/.local/share/ledgerly/ledgerly.sqlite" } }
        let logged = LogCapture()
        let logger = Logger(label: "test") { _ in logged }
        let (page, reference) = WebResponse.internalError(Leaky(), path: "/wallets", logger: logger)
        #expect(!page.markup.contains("SQLITE_CORRUPT"))
        #expect(!page.markup.contains("/home/someone"))
        #expect(page.markup.contains(reference))
        #expect(logged.lines.withLock { $0 }.contains { $0.contains(reference) && $0.contains("SQLITE_CORRUPT") })
    }

    /// A device name is printed by `ledgerly web devices` on the owner's terminal: a name typed on
    /// a phone with an escape sequence or a line break in it is refused beside its field.
    @Test func aDeviceNameWithControlCharactersIsRefused() {
        #expect(PairingPage.nameProblem("Anna's phone 📱") == nil)
        #expect(PairingPage.nameProblem("👩‍💻 laptop") == nil, "an emoji joined by a zero-width joiner is a name")
        #expect(PairingPage.nameProblem("") == nil)
        #expect(PairingPage.nameProblem("phone\u{1B}[2J\u{1B}]0;pwned\u{07}") != nil)
        #expect(PairingPage.nameProblem("two\nlines") != nil)
        #expect(PairingPage.nameProblem("tab\there") != nil)
        #expect(PairingPage.nameProblem("evil\u{202E}gpj.exe") != nil, "a bidi override reorders what the terminal shows")
        #expect(PairingPage.nameProblem(String(repeating: "x", count: PairingPage.nameLength)) == nil)
        #expect(PairingPage.nameProblem(String(repeating: "x", count: PairingPage.nameLength + 1)) != nil)
    }

    @Test func deviceNamesComeFromTheUserAgent() {
        #expect(PairingPage.deviceName(userAgent: "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0") == "Firefox on Android")
        #expect(PairingPage.deviceName(userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1") == "Safari on iPhone")
        #expect(PairingPage.deviceName(userAgent: "") == "a browser")
    }
}

/// Collects what was logged, for a test to read.
final class LogCapture: LogHandler, Sendable {
    let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    func log(event: LogEvent) {
        let text = "\(event.message) \(event.metadata ?? [:])"
        lines.withLock { $0.append(text) }
    }
}

import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyWeb
import LedgerlyRuntime
import Testing

@Suite struct AccessTests {
    @Test func tokensAre256RandomBitsInHex() {
        let first = RandomToken.make(), second = RandomToken.make()
        #expect(first.count == 64)
        #expect(RandomToken.isWellFormed(first))
        #expect(first != second)
        #expect(!RandomToken.isWellFormed("../" + String(first.dropFirst(3))))
        #expect(!RandomToken.isWellFormed(first.uppercased()))
    }

    @Test func csrfTokenMustMatchTheSession() {
        let book = SessionBook()
        let session = book.open(now: 1_000)
        #expect(SessionBook.csrfMatches(session.csrfToken, session))
        #expect(!SessionBook.csrfMatches(nil, session))
        #expect(!SessionBook.csrfMatches("", session))
        #expect(!SessionBook.csrfMatches(RandomToken.make(), session))
        #expect(!SessionBook.csrfMatches(session.id, session))
    }

    @Test func sessionsEndWhenIdleOrClosed() {
        let book = SessionBook()
        let session = book.open(now: 1_000)
        #expect(book.session(for: session.id, now: 1_000 + SessionBook.idleSeconds) != nil)
        // Each request restarts the idle time, so this one is still within it.
        #expect(book.session(for: session.id, now: 1_000 + 2 * SessionBook.idleSeconds) != nil)
        #expect(book.session(for: session.id, now: 1_000 + 4 * SessionBook.idleSeconds) == nil)
        let other = book.open(now: 1_000)
        book.close(other.id)
        #expect(book.session(for: other.id, now: 1_000) == nil)
        #expect(book.session(for: nil, now: 1_000) == nil)
        #expect(book.session(for: "not-a-token", now: 1_000) == nil)
    }

    @Test func aTicketWorksOnceAndNotAfterItExpires() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("web-tickets-\(RandomToken.make().prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let tickets = SignInTickets(home: LedgerlyHome(root: root))
        try FileManager.default.createDirectory(at: tickets.folder, withIntermediateDirectories: true)
        let token = RandomToken.make(), late = RandomToken.make()
        try Data("2000\n".utf8).write(to: tickets.folder.appendingPathComponent(token))
        try Data("1500\n".utf8).write(to: tickets.folder.appendingPathComponent(late))
        #expect(tickets.consume(token, now: 1_999) == .accepted)
        #expect(tickets.consume(token, now: 1_999) == .unknown)
        #expect(tickets.consume(late, now: 1_999) == .expired)
        #expect(tickets.consume(late, now: 1_000) == .unknown)
        #expect(tickets.consume("../../etc/passwd", now: 0) == .unknown)
    }

    /// Loopback is served as HTTP, any other address as HTTPS only (D590); a host must be an IP address.
    @Test func listenAddressesAndWhetherTheyAreLoopback() throws {
        #expect(try WebListenAddress(parsing: "127.0.0.1:8470") == WebListenAddress(host: "127.0.0.1", port: 8470))
        #expect(try WebListenAddress(parsing: "9000") == WebListenAddress(host: "127.0.0.1", port: 9000))
        #expect(try WebListenAddress(parsing: "localhost:0") == WebListenAddress(host: "127.0.0.1", port: 0))
        #expect(try WebListenAddress(parsing: "[::1]:8470").description == "[::1]:8470")
        #expect(try WebListenAddress(parsing: "[::1]:8470").isLoopback)
        #expect(try WebListenAddress(parsing: "127.0.0.2:8470").isLoopback)
        #expect(try !WebListenAddress(parsing: "0.0.0.0:8470").isLoopback)
        #expect(try WebListenAddress(parsing: "0.0.0.0:8470").isUnspecified)
        #expect(try !WebListenAddress(parsing: "192.168.1.2:8470").isLoopback)
        #expect(try !WebListenAddress(parsing: "[::]:8470").isLoopback)
        #expect(try WebListenAddress(parsing: "[fd00::2]:8470").description == "[fd00::2]:8470")
        #expect(throws: WebAddressError.notAnAddress("ledgerly.example")) { try WebListenAddress(parsing: "ledgerly.example:8470") }
        #expect(throws: WebAddressError.notAnAddress("127.0.0.1.5")) { try WebListenAddress(parsing: "127.0.0.1.5:8470") }
        #expect(throws: WebAddressError.notAnAddress("fd00::zz")) { try WebListenAddress(parsing: "[fd00::zz]:8470") }
        #expect(throws: WebAddressError.badPort("127.0.0.1:99999")) { try WebListenAddress(parsing: "127.0.0.1:99999") }
    }

    /// web.json's refusal names web.json's key, not the command-line option it did not come from.
    @Test func aWebJSONAddressErrorNamesWebJSON() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("web-config-\(RandomToken.make().prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = LedgerlyHome(root: root)
        try FileManager.default.createDirectory(at: home.configDirectory, withIntermediateDirectories: true)
        let file = home.configDirectory.appendingPathComponent(WebConfiguration.fileName)
        try Data(#"{"listen": "0.0.0.0:8470"}"#.utf8).write(to: file)
        #expect(try WebConfiguration.listenAddress(home: home) == WebListenAddress(host: "0.0.0.0", port: 8470))
        try Data(#"{"listen": "nas.local:8470"}"#.utf8).write(to: file)
        do {
            _ = try WebConfiguration.listenAddress(home: home)
            Issue.record("a host name was accepted")
        } catch let error as WebConfigurationError {
            #expect(error.description.hasPrefix("\(file.path): listen: 'nas.local' is not an IP address"), "\(error)")
            #expect(!error.description.contains("--listen"))
        }
    }

    @Test func formFieldsDecodeAsBrowsersEncode() {
        let form = FormFields(encoded: "notes=%3Cscript%3E+%7B%7B+x+%7D%7D&amount=12.50&tags=a%2Cb&amount=99&bad=%ZZ")
        #expect(form["notes"] == "<script> {{ x }}")
        #expect(form["amount"] == "12.50")
        #expect(form.values("amount") == ["12.50", "99"])
        #expect(form["bad"] == "%ZZ")
        #expect(form["missing"] == nil)
        #expect(FormFields(encoded: "a=+x+")["a"] == " x ")
        #expect(FormFields(encoded: "a=+x+").trimmed("a") == "x")
    }

    @Test func walletCursorsReadOnlyTheirOwnShape() {
        #expect(WalletFilters.cursor("2026-12-01.45") != nil)
        #expect(WalletFilters.cursor("2026-12-01.0") == nil)
        #expect(WalletFilters.cursor("yesterday.4") == nil)
        #expect(QueryEncoding.encode("a b&c=<d>") == "a%20b%26c%3D%3Cd%3E")
    }

    @Test func aChangeIsNewsOnlyWhenTheSeqMovesOn() {
        var tracker = SeqTracker()
        let readings = [("a", 5), ("a", 5), ("a", 6), ("a", 4), ("b", 1)].map { tracker.moved(epoch: $0.0, seq: Int64($0.1)) }
        // The first reading only sets the mark; a replaced database (another epoch) is news.
        #expect(readings == [false, false, true, false, true])
    }

    /// tx.update keeps a category when none is sent, so "No category" on an edit is refused
    /// instead of being saved as if nothing was asked.
    @Test func anEditThatDropsTheCategoryIsNoticed() {
        func record(category: Int64?, transfer: TransferLink? = nil) -> TransactionRecord {
            TransactionRecord(id: 7, kind: .expense, walletId: 1, amount: "5.00", currency: "EUR", categoryId: category, notes: nil, date: "2026-12-01", tags: [],
                              attachmentPath: nil, transfer: transfer, splits: [], walletAmount: "5.00", baseAmount: "5.00", baseCurrency: "EUR", conversion: nil,
                              baseConversion: nil, createdAt: "2026-12-01T00:00:00Z", updatedAt: "2026-12-01T00:00:00Z")
        }
        let none = TransactionInput(FormFields([("category", "")])), other = TransactionInput(FormFields([("category", "4")]))
        #expect(none.removesCategory(of: record(category: 3)))
        #expect(!other.removesCategory(of: record(category: 3)))
        #expect(!none.removesCategory(of: record(category: nil)))
        #expect(!none.removesCategory(of: record(category: 3, transfer: TransferLink(counterpartyWalletId: 2, counterpartyTransactionId: 8))))
    }

    @Test func storeFieldsMapToFormFields() {
        #expect(TransactionInput.formField(forStoreField: "walletId") == "wallet")
        #expect(TransactionInput.formField(forStoreField: "tags[2]") == "tags")
        #expect(TransactionInput.formField(forStoreField: "body.amount") == "amount")
        #expect(TransactionInput.formField(forStoreField: "body.tags[0]") == "tags")
        #expect(TransactionInput.formField(forStoreField: "amount") == "amount")
        #expect(TransactionInput.formField(forStoreField: "toWalletId") == "to_wallet")
        #expect(TransactionInput.formField(forStoreField: nil) == nil)
        #expect(TransactionInput.formField(forStoreField: "key") == nil)
    }
}

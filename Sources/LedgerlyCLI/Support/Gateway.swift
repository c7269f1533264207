import FoundationEssentials
import Glibc
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// The CLI's connection to the services: one request client per service, plus name lookups
/// (a wallet or category may be given by id, name or path).
final class Gateway {
    let home: LedgerlyHome
    private let context: ZMQContext
    private let timeout: Int
    /// The command's own names for the request fields it fills, so an error names what the
    /// person typed.
    private let wording: FieldWording
    private lazy var store = RequestClient(.store, home: home, context: context, timing: .cli(timeoutMilliseconds: timeout))
    /// The wallet and category lists, asked once per command (a lookup by name and the table
    /// that prints names both need them); forgotten after any write.
    private var walletList: [WalletRecord]?
    private var categoryList: [CategoryRecord]?
    /// `--home` as typed and `--no-start`, for `ServiceStarter`.
    private let explicitHome: String?
    private let noStart: Bool
    /// Set once the store is known to run (or was started): asked before the first request to
    /// the store, never by `status(of:)`, so `status` and `restore` start nothing (D619).
    private var storeEnsured = false

    init(_ options: some ServiceAddress, wording: FieldWording = [:]) throws {
        self.wording = wording
        home = LedgerlyHome.resolve(explicit: options.home)
        context = try ZMQContext()
        timeout = max(ClientTiming.minimumCLITimeoutMilliseconds, options.timeout)
        explicitHome = options.home
        noStart = options.noStart
    }

    /// Starts the services when the store's lock says none runs (D615, D616), once per command.
    private func ensureStore() throws(CLIFailure) {
        if storeEnsured { return }
        try ServiceStarter.ensureStore(home: home, explicitHome: explicitHome, noStart: noStart, context: context)
        storeEnsured = true
    }

    /// For bulk work (imports, exports) whose single requests may take seconds: the store is
    /// asked for its status first with the usual timeout, so a store that is down is still
    /// reported at once, then requests wait up to `patientMilliseconds`.
    init(_ options: some ServiceAddress, patientMilliseconds: Int, wording: FieldWording = [:]) throws {
        self.wording = wording
        home = LedgerlyHome.resolve(explicit: options.home)
        context = try ZMQContext()
        timeout = max(ClientTiming.minimumCLITimeoutMilliseconds, options.timeout, patientMilliseconds)
        explicitHome = options.home
        noStart = options.noStart
        try ensureStore()
        let quick = RequestClient(.store, home: home, context: context, timing: .cli(timeoutMilliseconds: options.timeout))
        defer { quick.close() }
        do {
            _ = try quick.call(StatusRequest())
        } catch {
            throw Self.failure(error)
        }
    }

    /// Calls the store; turns every failure into a `CLIFailure` with the right exit status.
    func call<Request: RequestBody>(_ body: Request) throws -> Request.Reply {
        // `isWrite`, not `is any ReadRequest`: a dynamic cast to a protocol scans the binary's
        // conformance records on its first use per type, a millisecond of a short command.
        if Request.isWrite {
            walletList = nil
            categoryList = nil
        }
        try ensureStore()
        do {
            return try store.call(body)
        } catch {
            throw Self.failure(error, wording: wording)
        }
    }

    /// A store connection of its own, for work that sends from more than one thread (each
    /// thread its own connection: a `RequestClient` is not thread-safe), with `importBatch(_:on:)`.
    func separateStoreClient() -> RequestClient {
        RequestClient(.store, home: home, context: context, timing: .cli(timeoutMilliseconds: timeout))
    }

    /// A `tx.import` batch on `client` (from `separateStoreClient`), its frame written by
    /// `TransactionImportCoding` instead of `JSONEncoder` (the same bytes, D359); failures worded
    /// as `call`'s.
    func importBatch(_ request: TransactionImportRequest, on client: RequestClient) throws -> TransactionImportReply {
        let envelope = Envelope(type: TransactionImportRequest.messageType.rawValue, body: request, key: UUID().uuidString.lowercased())
        do throws(ClientError) {
            let reply = try client.exchange(TransactionImportCoding.encode(envelope), id: envelope.id)
            return try RequestClient.decodeReply(reply, as: TransactionImportReply.self, expectedType: TransactionImportRequest.messageType.replyType)
        } catch {
            throw Self.failure(error, wording: wording)
        }
    }

    /// A `tx.list` page, read without `JSONDecoder` (D347).
    func listTransactions(_ request: TransactionListRequest) throws -> TransactionListReply {
        try call(request, reading: TransactionListCoding.decodeReplyFrame)
    }

    /// A category report, read without `JSONDecoder` (D388).
    func categoryReport(_ request: CategoryReportRequest) throws -> CategoryReport {
        try call(request, reading: CategoryReportCoding.decodeReplyFrame)
    }

    /// A read whose reply the store writes in one known shape, read by `reader` from the frame's
    /// bytes; any other reply (an error, a shape not expected) is read by `JSONDecoder` as every
    /// other call's.
    private func call<Request: ReadRequest>(_ request: Request, reading reader: ([UInt8], _ expectedType: String, _ re: String?) -> Request.Reply?) throws -> Request.Reply {
        let envelope = Envelope(type: Request.messageType.rawValue, body: request)
        let expectedType = Request.messageType.replyType
        try ensureStore()
        do {
            let frame: Data
            do { frame = try MessageCoding.encode(envelope) } catch { throw ClientError.invalidReply("could not encode the request: \(error)") }
            let reply = try store.exchange(frame, id: envelope.id)
            if let read = reader([UInt8](reply), expectedType, envelope.id) { return read }
            return try RequestClient.decodeReply(reply, as: Request.Reply.self, expectedType: expectedType)
        } catch let error as ClientError {
            throw Self.failure(error, wording: wording)
        }
    }

    /// Every transaction, `pageSize` at a time in `order`, each page handed to `body`. The next
    /// page is asked for on a thread of its own (with its own connection) while `body` works on
    /// this one, at most one page ahead, so the store reads and encodes while the CLI writes (D262).
    /// `conversions` false: records without their rate snapshots (`TransactionExportRequest.conversions`).
    func exportPages(pageSize: Int, order: TransactionExportOrder = .id, conversions: Bool, _ body: (ExportPage) throws -> Void) throws {
        try ensureStore()
        let frames = PageHandoff<ExportPageFrame>()
        let pages = PageHandoff<ExportPage>()
        let home = self.home, context = self.context, timeout = self.timeout
        // Three stages, each on its own thread (D344, D351): the fetcher asks for the next page
        // as soon as a reply says where it starts and hands the reply over unread; the reader
        // reads it into records; this thread writes them. The store makes page n + 2 while page
        // n + 1 is read and page n written.
        DetachedThread.start(name: "export fetcher") {
            let client = RequestClient(.store, home: home, context: context, timing: .cli(timeoutMilliseconds: timeout))
            defer { client.close() }
            var after: Int64?
            var afterDate: String?
            repeat {
                let request = TransactionExportRequest(afterId: after, limit: pageSize, order: order == .id ? nil : order, afterDate: afterDate,
                                                       conversions: conversions ? nil : false)
                let result = Result { try Gateway.exportFrame(request, client: client) }
                guard frames.put(result), case .success(let frame) = result else { return }
                after = frame.nextAfterId
                afterDate = frame.nextAfterDate
            } while after != nil
        }
        DetachedThread.start(name: "export reader") {
            while let frame = frames.take() {
                let page = frame.flatMap { frame in Result { try frame.read() } }
                guard pages.put(page), case .success(let read) = page, read.reply.nextAfterId != nil else { return }
            }
        }
        defer {
            pages.stop()
            frames.stop()
        }
        while true {
            // Only this thread stops the handoffs, so a page always comes; said rather than
            // assumed, since ending here quietly would cut the export short.
            guard let taken = pages.take() else { throw CLIFailure(message: "the export stopped before its last page", status: .failure) }
            let page = try taken.get()
            try body(page)
            if page.reply.nextAfterId == nil { return }
        }
    }

    /// A `tx.export` reply as received, with where the next page starts.
    struct ExportPageFrame: Sendable {
        let nextAfterId: Int64?
        let nextAfterDate: String?
        let read: @Sendable () throws -> ExportPage
    }

    /// A `tx.export` page read, with its records' bytes as the store wrote them when it was read
    /// without `JSONDecoder` (nil when it had to be: an unexpected shape).
    struct ExportPage: Sendable {
        let reply: TransactionExportReply
        let recordBytes: TransactionExportCoding.RecordBytes?
    }

    /// One `tx.export` page, not yet read. The store writes these pages in one known shape, which
    /// is read without `JSONDecoder` (D261); a reply whose next page cannot be found that way (an
    /// error, a shape not expected) is read at once by `JSONDecoder`, as every other call's.
    static func exportFrame(_ request: TransactionExportRequest, client: RequestClient) throws -> ExportPageFrame {
        let envelope = Envelope(type: TransactionExportRequest.messageType.rawValue, body: request)
        let expectedType = TransactionExportRequest.messageType.replyType
        do {
            let frame: Data
            do { frame = try MessageCoding.encode(envelope) } catch { throw ClientError.invalidReply("could not encode the request: \(error)") }
            // `nextPage` checks the reply's `re` while it finds the next page, so the exchange
            // does not step over the page a second time for it (a client's socket never holds a
            // reply to an earlier request: a try that times out closes it). Any other reply is
            // checked here before it is read.
            let reply = try client.exchange(frame, id: nil)
            let bytes = [UInt8](reply)
            if let next = TransactionExportCoding.nextPage(bytes, expectedType: expectedType, re: envelope.id) {
                let id = envelope.id
                return ExportPageFrame(nextAfterId: next.afterId, nextAfterDate: next.afterDate) {
                    if let page = TransactionExportCoding.decodeReplyFrameKeepingRecords(bytes, expectedType: expectedType, re: id) {
                        return ExportPage(reply: page.reply, recordBytes: page.records)
                    }
                    do throws(ClientError) {
                        return ExportPage(reply: try RequestClient.decodeReply(Data(bytes), as: TransactionExportReply.self, expectedType: expectedType), recordBytes: nil)
                    } catch {
                        throw failure(error)
                    }
                }
            }
            if let replyTo = EnvelopeScan.replyTo(bytes), replyTo != envelope.id {
                throw ClientError.invalidReply("the reply answers another request (\(replyTo))")
            }
            let page = try RequestClient.decodeReply(reply, as: TransactionExportReply.self, expectedType: expectedType)
            return ExportPageFrame(nextAfterId: page.nextAfterId, nextAfterDate: page.nextAfterDate) { ExportPage(reply: page, recordBytes: nil) }
        } catch let error as ClientError {
            throw failure(error)
        }
    }

    /// Asks the rates service to fetch its providers now; a refresh may take a while.
    func refreshRates() throws -> RatesRefreshReply {
        // A refresh may legitimately take a minute; a service that is down should not.
        if case .failure(let error) = status(of: .rates) { throw Self.failure(error) }
        let client = RequestClient(.rates, home: home, context: context, timing: .ratesRefresh(timeoutMilliseconds: timeout))
        defer { client.close() }
        do { return try client.call(RatesRefreshRequest()) } catch { throw Self.failure(error) }
    }

    /// Asks `ledgerly-sync` (not the store): reaching the hub and deriving a key take seconds,
    /// so it waits up to `patientMilliseconds` once the service has answered its status.
    func callSync<Request: RequestBody>(_ body: Request, patientMilliseconds: Int) throws -> Request.Reply {
        if case .failure(let error) = status(of: .sync) { throw Self.failure(error) }
        let client = RequestClient(.sync, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: max(timeout, patientMilliseconds), attempts: 1))
        defer { client.close() }
        do { return try client.call(body) } catch { throw Self.failure(error, wording: wording) }
    }

    /// Asks one service for its status with a short timeout and a single try.
    func status(of service: LedgerlyService) -> Result<StatusReply, ClientError> {
        let client = RequestClient(service, home: home, context: context, timing: .statusProbe(timeoutMilliseconds: timeout))
        defer { client.close() }
        return Result { () throws(ClientError) in try client.call(StatusRequest()) }
    }

    static func failure(_ error: ClientError, wording: FieldWording = [:]) -> CLIFailure {
        switch error {
        case .rejected(let body):
            var failure = CLIFailure(message: wording.message(body), status: ExitStatus.of(error))
            failure.code = body.code
            if body.code == .setupRequired { failure.hint = "Run `ledgerly setup` to choose your base currency and exchange mode." }
            return failure
        case .unavailable:
            return CLIFailure(message: error.description, status: .unavailable,
                              hint: "Is Ledgerly running? \(StartHint.text); `ledgerly status` shows each service.")
        case .notRunning:
            return CLIFailure(message: error.description, status: .unavailable, hint: "Start Ledgerly: \(StartHint.text).")
        case .cancelled:
            return CLIFailure(message: error.description, status: .unavailable)
        case .invalidReply, .transport:
            return CLIFailure(message: error.description, status: .failure)
        }
    }

    /// A SUB socket on the store's change events, subscribed to `topic` (an event type prefix).
    func subscribe(_ topic: String) throws -> ZMQSocket {
        try ensureStore()
        do {
            let socket = try ZMQSocket(context: context, type: .sub)
            try socket.subscribe(topic)
            try socket.connect(home.storeEventsEndpoint)
            return socket
        } catch {
            throw CLIFailure(message: "cannot listen to the store's events: \(error)", status: .failure)
        }
    }

    // MARK: Lookups

    /// Every wallet, archived ones too.
    func wallets() throws -> [WalletRecord] {
        if let walletList { return walletList }
        let wallets = try call(WalletListRequest(includeArchived: true)).wallets
        walletList = wallets
        return wallets
    }

    func categories() throws -> [CategoryRecord] {
        if let categoryList { return categoryList }
        let categories = try call(CategoryListRequest()).categories
        categoryList = categories
        return categories
    }

    func wallet(_ reference: String, field: String = "--wallet") throws -> WalletRecord {
        let wallets = try wallets()
        if let id = Int64(reference), let match = wallets.first(where: { $0.id == id }) { return match }
        if let match = wallets.first(where: { $0.name.equalsIgnoringCase(reference) }) { return match }
        let open = wallets.filter { !$0.archived }.map(\.name)
        let guess = NameSuggestion.nearest(reference, among: open).map { "; did you mean '\($0)'?" } ?? ""
        throw CLIFailure(message: "\(field): no wallet '\(reference)'" + (open.isEmpty ? "; add one with `ledgerly wallet add`" : "\(guess) (wallets: \(open.joined(separator: ", ")))"),
                         status: .refused)
    }

    func category(_ reference: String, field: String = "--category") throws -> CategoryRecord {
        let categories = try categories()
        if let id = Int64(reference), let match = categories.first(where: { $0.id == id }) { return match }
        if let match = categories.first(where: { $0.path.equalsIgnoringCase(reference) }) { return match }
        let byName = categories.filter { $0.name.equalsIgnoringCase(reference) }
        if byName.count == 1 { return byName[0] }
        if byName.count > 1 {
            throw CLIFailure(message: "\(field): '\(reference)' matches \(byName.map(\.path).joined(separator: ", ")); give the full path", status: .refused)
        }
        // By name, or by path when the name is not close (a typo in a parent's name).
        let guess = NameSuggestion.nearest(reference, among: categories.map(\.name)).flatMap { name in categories.first { $0.name == name }?.path }
            ?? NameSuggestion.nearest(reference, among: categories.map(\.path))
        throw CLIFailure(message: "\(field): no category '\(reference)'" + (guess.map { "; did you mean '\($0)'?" } ?? "") + "; see `ledgerly category list`",
                         status: .refused)
    }
}

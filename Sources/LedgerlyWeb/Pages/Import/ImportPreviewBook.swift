import Foundation
import LedgerlyProtocol
import Synchronization

/// The statements parsed on /import and not yet confirmed, kept in memory per session (D602):
/// the confirm then imports exactly the rows the preview showed, without the browser sending the
/// file again. Bounded (a few per session, a few dozen in all, the oldest go first) and expiring,
/// so uploads never pile up; a restart forgets them, and the page then asks for the file again.
public final class ImportPreviewBook: Sendable {
    /// A parsed statement waiting for its confirm.
    public struct Preview: Sendable {
        public let id: String
        public let sessionId: String
        public let importId: String
        public let walletName: String
        public let fileName: String
        public let items: [TransactionImportItem]
        public let made: Int64
    }

    /// The one book of this process (previews live as long as sessions do: in memory).
    public static let shared = ImportPreviewBook()
    static let perSession = 4
    static let capacity = 32
    static let lifeSeconds: Int64 = 30 * 60

    private let previews = Mutex<[Preview]>([])

    public init() {}

    /// Keeps `preview`, dropping expired ones and the oldest beyond the bounds.
    public func keep(_ preview: Preview, now: Int64) {
        previews.withLock { book in
            book.removeAll { now - $0.made > Self.lifeSeconds }
            book.append(preview)
            let mine = book.filter { $0.sessionId == preview.sessionId }
            if mine.count > Self.perSession, let oldest = mine.first { book.removeAll { $0.id == oldest.id } }
            if book.count > Self.capacity { book.removeFirst(book.count - Self.capacity) }
        }
    }

    /// The session's preview `id` if it is still kept (not expired). A confirmed preview stays
    /// until it expires, so a resent confirm finds it and the store's idempotency key answers (D604).
    public func preview(_ id: String, sessionId: String, now: Int64) -> Preview? {
        previews.withLock { book in
            book.first { $0.id == id && $0.sessionId == sessionId && now - $0.made <= Self.lifeSeconds }
        }
    }
}

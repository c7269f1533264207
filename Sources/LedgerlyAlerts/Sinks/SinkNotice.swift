import Foundation
import LedgerlyProtocol

/// What a command hook or webhook is handed: an alert, or, for a sink whose `events` include
/// `transactions`, a change to transactions exactly as the store published it (`ChangeEvent`:
/// `tx.created`, `tx.updated`, `tx.deleted`, `tx.imported`, `tx.import.undone`).
public enum SinkNotice: Hashable, Sendable {
    case alert(AlertRecord)
    case transaction(ChangeEvent)

    /// The change types `transactions` sinks receive.
    public static let transactionTypes: Set<String> = [
        ChangeEventType.txCreated.rawValue, ChangeEventType.txUpdated.rawValue, ChangeEventType.txDeleted.rawValue,
        ChangeEventType.txImported.rawValue, ChangeEventType.txImportUndone.rawValue,
    ]

    public var event: SinkEvent {
        switch self {
        case .alert: .alerts
        case .transaction: .transactions
        }
    }

    /// Unique among deliveries: what receivers deduplicate with. An alert's key; a change's
    /// `<epoch>:<seq>`.
    public var key: String {
        switch self {
        case .alert(let alert): alert.key
        case .transaction(let change): "\(change.epoch):\(change.seq)"
        }
    }

    /// The outbox file's name part: the alert id (as before changes were delivered, so older
    /// outbox files still match), `tx.<epoch>.<seq>` for a change (the epoch, since a restored
    /// database numbers its changes anew; '.', which a sink's name may hold but never next to
    /// its '-', keeps `home` + `tx…` apart from a sink named `home-tx`).
    var deliveryId: String {
        switch self {
        case .alert(let alert): "\(alert.id)"
        case .transaction(let change): "tx.\(change.epoch).\(change.seq)"
        }
    }

    /// A webhook's order: alerts by id, then changes by sequence number.
    var order: (Int, Int64) {
        switch self {
        case .alert(let alert): (0, alert.id)
        case .transaction(let change): (1, change.seq)
        }
    }

    /// The JSON a hook reads on stdin and a webhook receives: the protocol's `AlertRecord` or
    /// `ChangeEvent`, as `MessageCoding` writes them.
    func body() throws -> Data {
        switch self {
        case .alert(let alert): try MessageCoding.encode(alert)
        case .transaction(let change): try MessageCoding.encode(change)
        }
    }
}

/// Which notices a sink takes (`events` in alerts.json); `alerts` alone by default.
public enum SinkEvent: String, Codable, CaseIterable, Hashable, Sendable {
    case alerts
    case transactions
}

import LedgerlyCore

public enum RecurrenceFrequency: String, Codable, CaseIterable, Sendable {
    case daily, weekly, monthly, yearly
}

/// What a due occurrence does: post the transaction, or only remind.
public enum RecurrenceMode: String, Codable, CaseIterable, Sendable {
    case post, remind
}

/// The transaction a recurring template posts (its date is the occurrence's).
public struct RecurringTemplate: Codable, Hashable, Sendable {
    public var kind: TransactionKind
    public var walletId: Int64
    public var amount: String
    public var currency: String?
    public var categoryId: Int64?
    public var notes: String?
    public var tags: [String]?

    public init(kind: TransactionKind, walletId: Int64, amount: String, currency: String? = nil, categoryId: Int64? = nil, notes: String? = nil, tags: [String]? = nil) {
        self.kind = kind
        self.walletId = walletId
        self.amount = amount
        self.currency = currency
        self.categoryId = categoryId
        self.notes = notes
        self.tags = tags
    }
}

/// A recurring transaction: every `every` days, weeks, months or years from `startDate` (a
/// monthly one on the 31st falls on each month's last day), until `endDate`.
public struct RecurringRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var template: RecurringTemplate
    public var frequency: RecurrenceFrequency
    public var every: Int
    public var startDate: String
    public var endDate: String?
    /// The next occurrence due; nil once past `endDate`.
    public var nextRun: String?
    public var mode: RecurrenceMode
    public var paused: Bool
    public var createdAt: String
    public var updatedAt: String

    public init(id: Int64, name: String, template: RecurringTemplate, frequency: RecurrenceFrequency, every: Int, startDate: String, endDate: String?, nextRun: String?, mode: RecurrenceMode, paused: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.template = template
        self.frequency = frequency
        self.every = every
        self.startDate = startDate
        self.endDate = endDate
        self.nextRun = nextRun
        self.mode = mode
        self.paused = paused
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `recurring.create`
public struct RecurringCreateRequest: WriteRequest, Hashable {
    public typealias Reply = RecurringRecord
    public static let messageType: MessageType = "recurring.create"
    public var name: String
    public var template: RecurringTemplate
    public var frequency: RecurrenceFrequency
    /// 1...1000, default 1.
    public var every: Int?
    /// "YYYY-MM-DD": the first occurrence.
    public var startDate: String
    public var endDate: String?
    /// Default post.
    public var mode: RecurrenceMode?

    public init(name: String, template: RecurringTemplate, frequency: RecurrenceFrequency, every: Int? = nil, startDate: String, endDate: String? = nil, mode: RecurrenceMode? = nil) {
        self.name = name
        self.template = template
        self.frequency = frequency
        self.every = every
        self.startDate = startDate
        self.endDate = endDate
        self.mode = mode
    }
}

/// `recurring.list`
public struct RecurringListRequest: ReadRequest, Hashable {
    public typealias Reply = RecurringListReply
    public static let messageType: MessageType = "recurring.list"
    public init() {}
}

public struct RecurringListReply: Codable, Hashable, Sendable {
    public var recurring: [RecurringRecord]
    public init(recurring: [RecurringRecord]) { self.recurring = recurring }
}

/// `recurring.pause`: pauses (no occurrence is posted or reminded; on resume the ones missed
/// meanwhile are skipped, not posted late) or resumes.
public struct RecurringPauseRequest: WriteRequest, Hashable {
    public typealias Reply = RecurringRecord
    public static let messageType: MessageType = "recurring.pause"
    public var id: Int64
    public var paused: Bool
    public init(id: Int64, paused: Bool) {
        self.id = id
        self.paused = paused
    }
}

/// `recurring.delete`: the template goes; transactions it posted stay.
public struct RecurringDeleteRequest: WriteRequest, Hashable {
    public typealias Reply = RecurringRecord
    public static let messageType: MessageType = "recurring.delete"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `recurring.post` (sent by `ledgerly-alerts`'s schedule): handles the occurrence due on
/// `occurrence` — posts its transaction (mode post) — and moves the template to the next one,
/// in one database transaction. Sent with the key `recurring:<id>:<occurrence>`, so an
/// occurrence is handled once however often it is sent; any occurrence but the one due is a
/// `conflict`.
public struct RecurringPostRequest: WriteRequest, Hashable {
    public typealias Reply = RecurringPostReply
    public static let messageType: MessageType = "recurring.post"
    public var id: Int64
    public var occurrence: String
    public init(id: Int64, occurrence: String) {
        self.id = id
        self.occurrence = occurrence
    }
}

public struct RecurringPostReply: Codable, Hashable, Sendable {
    public var recurring: RecurringRecord
    public var occurrence: String
    /// The transaction posted (mode post).
    public var transaction: TransactionRecord?
    /// Why the occurrence could not be posted (its wallet archived, say): the template is now
    /// paused and a `recurring.blocked` alert says so; `recurring` is the paused template.
    /// Absent when the occurrence was handled.
    public var blocked: String?
    /// True when another device had already posted this occurrence and its transaction reached
    /// this one by sync (or was posted and deleted): nothing was posted here, the template moved
    /// on. Absent otherwise.
    public var postedElsewhere: Bool?
    public init(recurring: RecurringRecord, occurrence: String, transaction: TransactionRecord?, blocked: String? = nil, postedElsewhere: Bool? = nil) {
        self.recurring = recurring
        self.occurrence = occurrence
        self.transaction = transaction
        self.blocked = blocked
        self.postedElsewhere = postedElsewhere
    }
}

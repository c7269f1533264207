import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// What a reply to any frame must satisfy (PROTOCOL.md §2–§4, §8–§10), judged with
/// `ReferenceJSON` rather than the services' own parser.
enum FrameOracle {
    static let errorCodes = Set(ErrorCode.allCases.map(\.rawValue))
    /// Members whose string value is an amount wherever they appear in a reply.
    static let amountMembers: Set<String> = [
        "amount", "balance", "startingBalance", "limit", "target", "current", "result", "spent", "available",
        "remaining", "carried", "baseAmount", "walletAmount", "income", "expenses", "net",
    ]

    /// A description of what is wrong, or nil when the reply keeps the rules.
    static func check(request: Data, reply: Data) -> String? {
        guard let answer = ReferenceJSON.parse([UInt8](reply)) else { return "the reply is not strict JSON (or holds U+0000)" }
        guard case .string(let type)? = answer["type"], case .string(let re)? = answer["re"] else { return "the reply has no type or re" }
        let sent = ReferenceJSON.parse([UInt8](request))
        var sentId: String?
        if case .string(let id)? = sent?["id"] { sentId = id }
        if type == "error" {
            guard case .string(let code)? = answer["body"]?["code"], errorCodes.contains(code) else { return "an error reply without a known code" }
            guard case .string(let message)? = answer["body"]?["message"] else { return "an error reply without a message" }
            if message.count > 2_000 { return "an error message of \(message.count) characters (echoed input must be capped)" }
            if message.unicodeScalars.contains(where: { $0.value < 0x20 }) { return "an error message with raw control characters" }
            if let sentId, !sentId.isEmpty, re != sentId, re != "" { return "re '\(re)' is neither the request's id nor empty" }
            return nil
        }
        guard let sent else { return "accepted a frame that is not strict JSON (duplicate member, U+0000, bad encoding, trailing text…)" }
        guard let sentId, !sentId.isEmpty else { return "accepted a frame without a non-empty string id" }
        guard re == sentId else { return "re '\(re)' does not echo the id '\(sentId)' exactly" }
        guard case .string(let requestType)? = sent["type"], type == requestType + ".ok" else { return "reply type \(type) does not match the request" }
        return invalidValue(in: answer["body"] ?? .null, path: "body")
    }

    /// An amount, date or time in an accepted reply that the protocol does not allow.
    static func invalidValue(in value: ReferenceJSON.Value, path: String) -> String? {
        switch value {
        case .object(let members):
            for (name, member) in members {
                if case .string(let text) = member {
                    if amountMembers.contains(name), text.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) == nil { return "\(path).\(name) = '\(text)' is not an amount" }
                    if name == "date", LedgerDate(text) == nil { return "\(path).\(name) = '\(text)' is not a date" }
                    if name.hasSuffix("At") || name == "asOf", !isStrictMoment(text) { return "\(path).\(name) = '\(text)' is not a time" }
                }
                // A sync message's `clocks` are keyed by field names, and hold clock readings.
                if name == "clocks", case .object(let clocks) = member {
                    for (field, clock) in clocks {
                        guard case .string(let text) = clock, HybridLogicalClock(text) != nil else { return "\(path).clocks.\(field) is not a clock reading" }
                    }
                    continue
                }
                if let problem = invalidValue(in: member, path: "\(path).\(name)") { return problem }
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let problem = invalidValue(in: item, path: "\(path)[\(index)]") { return problem }
            }
        default: break
        }
        return nil
    }

    /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`, every field within its calendar range.
    static func isStrictMoment(_ text: String) -> Bool {
        guard let match = text.wholeMatch(of: /([0-9]{4}-[0-9]{2}-[0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]{1,9})?(?:Z|[+-]([0-9]{2}):([0-9]{2})))?/),
              LedgerDate(String(match.1)) != nil
        else { return false }
        if let hour = match.2, let minute = match.3, let second = match.4 {
            guard Int(hour)! < 24, Int(minute)! < 60, Int(second)! < 60 else { return false }
        }
        if let hours = match.5, let minutes = match.6 {
            guard Int(hours)! < 24, Int(minutes)! < 60 else { return false }
        }
        return true
    }

    /// A frame for a failure message: text, cut to 300 characters, control characters escaped.
    static func show(_ data: Data) -> String {
        let text = String(decoding: data.prefix(300), as: UTF8.self)
        return text.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined() + (data.count > 300 ? "…" : "")
    }
}

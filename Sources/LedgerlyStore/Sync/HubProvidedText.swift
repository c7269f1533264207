import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// Text a hub supplied (a quarantined row's clock and device, an error the hub sent back) is
/// stored and then printed by `sync status` on the user's terminal: a hostile hub could put
/// terminal escape sequences in it (D463). Such text is kept readable but inert: every control
/// or format character is written as `\u{…}`, and a clock that is not a clock reading is cut to
/// `clockLimit` bytes, ending in "…" to say so. Both are idempotent, so text stored before this
/// rule is made inert the same way when shown.
enum HubProvidedText {
    /// The most bytes kept of a clock that is not a clock reading (a real one is shorter).
    static let clockLimit = 64

    /// A clock as stored and shown: itself when it is a plain clock reading (62 bytes with a
    /// device id); otherwise escaped and cut to `clockLimit` bytes. A reading's device part is
    /// free text, so "reads as a clock" alone is not enough.
    static func clock(_ text: String) -> String {
        let inert = escaped(text)
        return HybridLogicalClock(text) != nil && inert == text && text.utf8.count <= clockLimit ? text : cut(inert, toBytes: clockLimit)
    }

    /// `text` with control and format characters written out as escapes.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` when it fits in `limit` UTF-8 bytes; otherwise its longest start of whole
    /// characters that fits with "…" after it.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = ""
        for character in text {
            guard kept.utf8.count + String(character).utf8.count + "…".utf8.count <= limit else { break }
            kept.append(character)
        }
        return kept + "…"
    }

    /// A hub row put aside, as stored and shown: its clock, device and reason made inert.
    static func setAside(_ row: SyncSetAside) -> SyncSetAside {
        SyncSetAside(hubSeq: row.hubSeq, device: cut(escaped(row.device), toBytes: clockLimit), hlc: clock(row.hlc), reason: escaped(row.reason))
    }
}

/// How many terminal columns a text takes, as `wcwidth` and hledger count them: East Asian wide
/// and fullwidth characters (CJK, Hangul, kana, fullwidth forms, most emoji) take two, combining
/// marks, zero-width and control characters none, everything else one.
///
/// Why: tables and journal postings are aligned with spaces, and counting characters lines up
/// `Café` but not `日本食` (three characters, six columns), so an amount after a CJK name landed
/// three columns left of the others. Swift's `Unicode.Scalar.Properties` has no East Asian width,
/// so the wide ranges are listed here: East Asian Wide (W) and Fullwidth (F) in Unicode 14's
/// EastAsianWidth.txt (as Python 3.11's `unicodedata` has it), merged where only unassigned code
/// points lay between, with the CJK planes 2 and 3 wide throughout as the file says.
public enum DisplayWidth {
    /// The columns `text` takes on a terminal. A `String` of its own: the generic version is
    /// not specialised across modules, and every journal posting and table cell is measured.
    /// ASCII is counted over the bytes in place (`withUTF8`): stepping through `String.UTF8View`
    /// cost many instructions a byte, and a monthly report measures thousands of cells (D390).
    public static func of(_ text: String) -> Int {
        var text = text
        let asciiWidth: Int? = text.withUTF8 { bytes in
            var width = 0
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte >= 0x20 && byte != 0x7F { width += 1 }
            }
            return width
        }
        return asciiWidth ?? text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// The columns `text` takes on a terminal.
    public static func of<Text: StringProtocol>(_ text: Text) -> Int {
        var width = 0
        var allASCII = true
        for byte in text.utf8 {
            if byte >= 0x80 { allASCII = false; break }
            if byte >= 0x20 && byte != 0x7F { width += 1 }
        }
        if allASCII { return width }
        width = 0
        for scalar in text.unicodeScalars { width += of(scalar) }
        return width
    }

    /// The columns one scalar takes: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul medial vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// Whether `value` is East Asian Wide or Fullwidth (binary search over `wideRanges`).
    static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Wide (W) and Fullwidth (F) code points, ascending.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAD9,
        0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F320,
        0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596,
        0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A,
        0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAF6, 0x20000...0x3FFFD,
    ]
}

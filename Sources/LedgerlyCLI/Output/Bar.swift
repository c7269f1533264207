import FoundationEssentials
import LedgerlyCore
import Glibc

/// A horizontal bar of unicode blocks, in eighths, for a share of a whole: what a budget's
/// spending (or a report's category) looks like at a glance. Over 100 % the bar is full.
struct Bar {
    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// `tenths`: the percentage in tenths (805 = 80.5 %), `width`: cells for 100 %.
    static func render(tenthsOfPercent tenths: Int, width: Int) -> String {
        let clamped = max(0, min(tenths, 1_000))
        let filledEighths = clamped * width * 8 / 1_000
        let text = String(repeating: "█", count: filledEighths / 8) + eighths[filledEighths % 8]
        return text.padded(toLength: width)
    }

    /// Columns to give a bar: what the terminal has left after `used`, between 10 and 40.
    static func width(besides used: Int) -> Int {
        var size = winsize()
        let columns = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 100
        return max(10, min(40, columns - used))
    }
}

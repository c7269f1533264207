import LedgerlyCore

/// Which date pattern a file's dates are written in, told from the dates themselves, or why it
/// cannot be told (shared by CSV header detection and QIF).
///
/// The first candidate that reads every date is taken, unless another one that also reads them
/// all gives a different day for one of them: then the file is ambiguous (03/04/2026: March or
/// April?) and the caller asks the user, because a wrong guess imports plausible wrong days.
enum BankDateFormatGuess {
    enum Outcome: Equatable {
        case format(String)
        /// No candidate reads every date: the first date rejected by the candidate that read the
        /// most of them (the one the user must look at), with its line when the caller gave lines.
        case noneFits(example: String, line: Int?)
        /// Two candidates read all dates but disagree; how, in words.
        case ambiguous(String)
    }

    /// - Parameter lines: each cell's line in the file, for the message; nil when unknown.
    static func guess(
        _ cells: [String], lines: [Int]? = nil, candidates: [String], twoDigitYears: BankCSVDateFormat.TwoDigitYears = .twentyFirstCentury
    ) throws(BankStatementError) -> Outcome {
        guard !cells.isEmpty else { return .format(candidates[0]) }
        var fits: [(format: BankCSVDateFormat, dates: [LedgerDate])] = []
        var furthestRejected = 0
        for pattern in candidates {
            let format = try BankCSVDateFormat(pattern, twoDigitYears: twoDigitYears)
            var dates: [LedgerDate] = []
            dates.reserveCapacity(cells.count)
            for cell in cells {
                guard let date = format.date(from: cell) else { break }
                dates.append(date)
            }
            if dates.count == cells.count { fits.append((format, dates)) } else { furthestRejected = max(furthestRejected, dates.count) }
        }
        guard let first = fits.first else { return .noneFits(example: cells[furthestRejected], line: lines?[furthestRejected]) }
        for other in fits.dropFirst() {
            if let index = first.dates.indices.first(where: { first.dates[$0] != other.dates[$0] }) {
                return .ambiguous("\"\(cells[index])\" reads as \(first.dates[index]) with \(first.format.pattern) and as \(other.dates[index]) with \(other.format.pattern)")
            }
        }
        return .format(first.format.pattern)
    }
}

import LedgerlyCore
import LedgerlyProtocol

/// A broker's trade CSV read into `invest.trade.import` lines, with the file's own line numbers.
///
/// Only the layout is read here: which column, which kind, which day. Quantities, prices, fees
/// and amounts go to the store as the file writes them (trimmed), because the store's number
/// rules are the only ones (docs/investments.md) and its refusal names the line and column.
public enum BrokerTradeCSV {
    /// The lines of `text` (a header, then one trade a record; blank records skipped).
    /// - Parameters:
    ///   - dateFormat: how the file writes days (`DD.MM.YYYY`); nil passes the cell as it is,
    ///     which must then be `YYYY-MM-DD`.
    ///   - progress: called with (records read, records in all) as the file is read.
    public static func lines(
        text: String, mapping: BrokerTradeMapping, dateFormat: BankCSVDateFormat? = nil,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws(BankStatementError) -> [TradeImportLine] {
        let records = try CSVReader.records(in: text, delimiter: delimiter(of: text))
        guard let header = records.first else { throw BankStatementError(line: nil, "the file is empty") }
        let names = header.fields.map { $0.trimmingWhitespace() }
        var position: [BrokerTradeMapping.Field: Int] = [:]
        for (field, column) in mapping.columns {
            guard let index = names.firstIndex(where: { $0.lowercased() == column.lowercased() }) else {
                throw BankStatementError(line: header.line, "--map: no column '\(column)' (for \(field.rawValue)) in the header; its columns are \(names.joined(separator: ", "))")
            }
            position[field] = index
        }
        var lines: [TradeImportLine] = []
        let body = records.dropFirst()
        for (done, record) in body.enumerated() {
            progress(done, body.count)
            if record.isBlank { continue }
            func cell(_ field: BrokerTradeMapping.Field) -> String? {
                guard let index = position[field], index < record.fields.count else { return nil }
                let text = record.fields[index].trimmingWhitespace()
                return text.isEmpty ? nil : text
            }
            guard let kindText = cell(.kind) else {
                throw BankStatementError(line: record.line, "column '\(mapping.columns[.kind] ?? "")' (kind) is empty")
            }
            guard let kind = mapping.kind(kindText) else {
                throw BankStatementError(line: record.line, "kind '\(kindText)' is not buy, sell, dividend, interest or distribution; map the broker's word with --kinds \(kindText)=buy")
            }
            guard let symbol = cell(.symbol) else {
                throw BankStatementError(line: record.line, "column '\(mapping.columns[.symbol] ?? "")' (symbol) is empty")
            }
            guard let dateText = cell(.date) else {
                throw BankStatementError(line: record.line, "column '\(mapping.columns[.date] ?? "")' (date) is empty")
            }
            var date = dateText
            if let dateFormat {
                guard let day = dateFormat.date(from: dateText) else {
                    throw BankStatementError(line: record.line, "date '\(dateText)' does not follow --date-format \(dateFormat.pattern) or is not a calendar day")
                }
                date = day.description
            }
            lines.append(TradeImportLine(
                line: record.line, kind: kind, symbol: symbol, date: date, quantity: cell(.quantity), price: cell(.price),
                fee: cell(.fee), amount: cell(.amount), rate: cell(.rate), notes: cell(.notes)))
        }
        progress(body.count, body.count)
        return lines
    }

    /// The separator the header line splits into the most fields by: brokers write `,`, `;` or tabs.
    static func delimiter(of text: String) -> CSVDelimiter {
        let header = text.prefix { $0 != "\n" && $0 != "\r" }
        return CSVDelimiter.allCases.max { first, second in
            header.filter { String($0) == first.rawValue }.count < header.filter { String($0) == second.rawValue }.count
        } ?? .comma
    }
}

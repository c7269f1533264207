import LedgerlyInterchange
import LedgerlyProtocol
import Testing

/// A broker's trade CSV read into `invest.trade.import` lines: columns by the `--map`, kinds by
/// name or the broker's words, the file's own line numbers, numbers passed on as written.
@Suite struct BrokerTradeCSVTests {
    let mapping: BrokerTradeMapping

    init() throws {
        mapping = try BrokerTradeMapping(map: "kind=Type, symbol=Ticker,date=Date,quantity=Qty,price=Price,fee=Commission,amount=Amount", kinds: "BUY=buy,DIV=dividend")
    }

    @Test func linesKeepTheFilesNumbersAndText() throws {
        let text = "Date,Type,Ticker,Qty,Price,Commission,Amount\n2026-01-02,BUY,AAPL,10,100.50,1,\n\n2026-02-01,sell,AAPL, 4 ,130,1,\n2026-03-15,Div,AAPL,,,,12.40\n"
        let lines = try BrokerTradeCSV.lines(text: text, mapping: mapping)
        #expect(lines == [
            TradeImportLine(line: 2, kind: .buy, symbol: "AAPL", date: "2026-01-02", quantity: "10", price: "100.50", fee: "1"),
            TradeImportLine(line: 4, kind: .sell, symbol: "AAPL", date: "2026-02-01", quantity: "4", price: "130", fee: "1"),
            TradeImportLine(line: 5, kind: .dividend, symbol: "AAPL", date: "2026-03-15", amount: "12.40"),
        ])
    }

    @Test func semicolonsAndADateFormatAreRead() throws {
        let text = "Date;Type;Ticker\n05.01.2026;interest;CASH\n"
        let lines = try BrokerTradeCSV.lines(text: text, mapping: try BrokerTradeMapping(map: "kind=Type,symbol=Ticker,date=Date"), dateFormat: try BankCSVDateFormat("DD.MM.YYYY"))
        #expect(lines.map(\.date) == ["2026-01-05"])
        #expect(lines.map(\.kind) == [.interest])
    }

    @Test func whatCannotBeReadNamesTheLineOrTheOption() throws {
        #expect(throws: BankStatementError(line: 2, "kind 'SWAP' is not buy, sell, dividend, interest or distribution; map the broker's word with --kinds SWAP=buy")) {
            try BrokerTradeCSV.lines(text: "Date,Type,Ticker,Qty,Price,Commission,Amount\n2026-01-02,SWAP,AAPL,1,1,,\n", mapping: mapping)
        }
        #expect(throws: BankStatementError.self) { try BrokerTradeCSV.lines(text: "Date,Kind,Ticker\n", mapping: mapping) }
        #expect(throws: BankStatementError(line: nil, "--map must name the column of symbol, date (e.g. kind=Type,symbol=Ticker,date=Date)")) {
            try BrokerTradeMapping(map: "kind=Type")
        }
        #expect(throws: BankStatementError(line: nil, "--kinds: 'split' is not one of buy, sell, dividend, interest, distribution")) {
            try BrokerTradeMapping(map: "kind=Type,symbol=Ticker,date=Date", kinds: "SPLIT=split")
        }
    }
}

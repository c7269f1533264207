import Foundation
import LedgerlyInterchange

/// The import's outcome as a value, so tests can check the error's line and message.
func importResult(_ text: String, _ mapping: BankCSVMapping, currency: String = "EUR") -> Result<[BankStatementRow], BankStatementError> {
    do {
        return .success(try BankCSVImport.parse(text: text, mapping: mapping, defaultCurrency: currency))
    } catch {
        return .failure(error)
    }
}

func importError(_ text: String, _ mapping: BankCSVMapping, currency: String = "EUR") -> BankStatementError? {
    if case .failure(let error) = importResult(text, mapping, currency: currency) { error } else { nil }
}

func decodeMapping(_ json: String) -> Result<BankCSVMapping, BankStatementError> {
    do {
        return .success(try BankCSVMapping.decode(json: Data(json.utf8)))
    } catch {
        return .failure(error)
    }
}

/// Date, Description, Amount: the simplest signed layout.
func signedMapping(
    dateFormat: String = "YYYY-MM-DD", decimal: String = ".", thousands: String? = nil,
    negativeIsExpense: Bool = true, rules: [BankCSVRule] = []
) -> BankCSVMapping {
    BankCSVMapping(
        date: .name("Date"), amounts: .signed(.name("Amount")), description: [.name("Description")],
        dateFormat: dateFormat, decimalSeparator: decimal, thousandsSeparator: thousands,
        negativeIsExpense: negativeIsExpense, rules: rules
    )
}

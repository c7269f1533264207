import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyWeb
import Testing

/// The pure parts of /import: the multipart body the upload form sends (D601), the format found
/// from a file's content, and the refusals of a file that is not a statement or yields nothing
/// (D603).
@Suite struct ImportUploadTests {
    static let wallet = WalletRecord(id: 1, name: "Checking", icon: nil, currency: "EUR", type: .bank, startingBalance: "0.00", balance: "0.00",
                                     institution: nil, sortOrder: 0, includeInNetWorth: true, archived: false, createdAt: "", updatedAt: "")

    static func body(_ boundary: String, _ parts: [(String, String?, String)]) -> [UInt8] {
        var text = ""
        for (name, filename, value) in parts {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\(filename.map { "; filename=\"\($0)\"" } ?? "")\r\n"
            if filename != nil { text += "Content-Type: text/csv\r\n" }
            text += "\r\n\(value)\r\n"
        }
        return Array((text + "--\(boundary)--\r\n").utf8)
    }

    @Test func theUploadFormsFieldsAndFileAreRead() throws {
        let boundary = try #require(MultipartForm.boundary(contentType: "multipart/form-data; boundary=----WebKitFormBoundaryX1y2"))
        #expect(boundary == "----WebKitFormBoundaryX1y2")
        let file = "Date,Amount\r\n2026-03-02,-1.00\r\n"
        let form = try #require(MultipartForm(body: Self.body(boundary, [("_csrf", nil, "abc"), ("file", "s.csv", file), ("wallet", nil, "7")]), boundary: boundary))
        #expect(form["_csrf"] == "abc")
        #expect(form["wallet"] == "7")
        #expect(form.file("file")?.filename == "s.csv")
        #expect(form.file("file")?.bytes == Array(file.utf8))
        #expect(form.fields["wallet"] == "7")
    }

    @Test func aBodyThatIsNotMultipartIsRefused() {
        #expect(MultipartForm.boundary(contentType: "application/x-www-form-urlencoded") == nil)
        #expect(MultipartForm(body: Array("wallet=1&file=x".utf8), boundary: "b") == nil)
        // A part that never ends (the body cut short) is not read as if complete.
        #expect(MultipartForm(body: Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue".utf8), boundary: "b") == nil)
    }

    @Test func theFormatIsFoundFromTheContent() {
        #expect(StatementUpload.Format.of("OFXHEADER:100\nDATA:OFXSGML\n<OFX>") == .ofx)
        #expect(StatementUpload.Format.of("<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>") == .camt)
        #expect(StatementUpload.Format.of("!Type:Bank\nD03/02/2026\nT-1.00\n^\n") == .qif)
        #expect(StatementUpload.Format.of("Date,Amount,Description\n") == .csv)
    }

    @Test func aCSVStatementBecomesTheCLIsItems() throws {
        let upload = try StatementUpload(bytes: Array("Date,Amount,Description\n2026-03-02,-12.50,Bakery\n".utf8), mapping: nil, wallet: Self.wallet, categories: [])
        #expect(upload.items.count == 1)
        #expect(upload.items[0].line == 2)
        #expect(upload.items[0].transaction?.kind == .expense)
        #expect(upload.items[0].transaction?.amount == "12.50")
        #expect(upload.items[0].transaction?.notes == "Bakery")
    }

    @Test func aFileThatIsNotAStatementOrYieldsNothingIsRefused() {
        #expect(throws: StatementUpload.Refusal.self) {
            try StatementUpload(bytes: [0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 13], mapping: nil, wallet: Self.wallet, categories: [])
        }
        #expect(throws: StatementUpload.Refusal.self) {
            try StatementUpload(bytes: Array("Dear bank,\nplease send my statement.\n".utf8), mapping: nil, wallet: Self.wallet, categories: [])
        }
        #expect(throws: StatementUpload.Refusal.self) {
            try StatementUpload(bytes: Array("Date,Amount,Description\n".utf8), mapping: nil, wallet: Self.wallet, categories: [])
        }
    }
}

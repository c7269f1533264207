import Foundation
import LedgerlyProtocol
import Testing

@Suite struct StrictJSONTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }

        init(_ name: String, _ text: String) {
            self.name = name
            self.bytes = Array(text.utf8)
        }

        init(_ name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    static let frame = #"{"v":1,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#

    static let good: [Sample] = [
        Sample("envelope", frame),
        Sample("whitespace everywhere", " \t\r\n{ \"v\" : 1 , \"body\" : { \"a\" : [ 1 , -2 , 0 , true , false , null , \"x\" ] } } \n"),
        Sample("empty containers", #"{"a":{},"b":[],"c":[[]],"d":""}"#),
        Sample("all escapes", #"{"s":"\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \uFEFF \ud83d\ude00"}"#),
        Sample("raw UTF-8 of every length", "{\"s\":\"é € 😀 \u{10FFFF}\"}"),
        Sample("raw U+FEFF inside a string", "{\"s\":\"\u{FEFF}x\"}"),
        Sample("names differing only in case", #"{"a":1,"A":2}"#),
        Sample("the same name in different objects", #"{"a":{"a":1},"b":{"a":2},"c":[{"a":1},{"a":2}]}"#),
        Sample("64 levels", String(repeating: #"{"a":"#, count: 63) + "{}" + String(repeating: "}", count: 63)),
        Sample("many members (hash table)", "{" + (0..<200).map { #""m\#($0)":\#($0)"# }.joined(separator: ",") + "}"),
        Sample("big integers", #"{"a":9223372036854775807,"b":-9223372036854775808,"c":-0}"#),
    ]

    static let notJSON: [Sample] = [
        Sample("empty", ""),
        Sample("only whitespace", "  "),
        Sample("an array", "[1,2]"),
        Sample("a string", #""text""#),
        Sample("unclosed", #"{"v":1,"id":"x","type":"#),
        Sample("trailing comma in an object", #"{"a":1,}"#),
        Sample("trailing comma in an array", #"{"a":[1,]}"#),
        Sample("a missing comma", #"{"a":1 "b":2}"#),
        Sample("two commas", #"{"a":1,,"b":2}"#),
        Sample("a comment", "{\"a\":1 /* c */}"),
        Sample("single quotes", "{'a':1}"),
        Sample("an unquoted name", "{a:1}"),
        Sample("two documents", #"{"a":1}{"b":2}"#),
        Sample("content after the object", #"{"a":1} x"#),
        Sample("a leading zero", #"{"a":01}"#),
        Sample("a plus sign", #"{"a":+1}"#),
        Sample("a bare dot", #"{"a":1.}"#),
        Sample("a leading dot", #"{"a":.5}"#),
        Sample("an empty exponent", #"{"a":1e}"#),
        Sample("NaN", #"{"a":NaN}"#),
        Sample("Infinity", #"{"a":Infinity}"#),
        Sample("True", #"{"a":True}"#),
        Sample("a cut literal", #"{"a":tru}"#),
        Sample("an unknown escape", #"{"a":"\x41"}"#),
        Sample("a short \\u escape", #"{"a":"\u41"}"#),
        Sample("a lone high surrogate", #"{"a":"\ud800"}"#),
        Sample("a lone low surrogate", #"{"a":"\udc00"}"#),
        Sample("a high surrogate before a non-surrogate", #"{"a":"\ud800\u0041"}"#),
        Sample("a raw newline in a string", "{\"a\":\"x\ny\"}"),
        Sample("a raw tab in a string", "{\"a\":\"x\ty\"}"),
        Sample("a raw NUL in a string", bytes: Array(#"{"a":""#.utf8) + [0] + Array(#""}"#.utf8)),
        Sample("a leading byte order mark", bytes: [0xEF, 0xBB, 0xBF] + Array(frame.utf8)),
        Sample("a byte order mark between tokens", "{\"a\":1,\u{FEFF}\"b\":2}"),
        Sample("UTF-16LE", bytes: Array(frame.data(using: .utf16LittleEndian)!)),
        Sample("UTF-16BE", bytes: Array(frame.data(using: .utf16BigEndian)!)),
        Sample("UTF-16 with its byte order mark", bytes: Array(frame.data(using: .utf16)!)),
        Sample("UTF-32LE", bytes: Array(frame.data(using: .utf32LittleEndian)!)),
        Sample("UTF-32BE", bytes: Array(frame.data(using: .utf32BigEndian)!)),
        Sample("Latin-1 é", bytes: Array(#"{"a":""#.utf8) + [0xE9] + Array(#""}"#.utf8)),
        Sample("an overlong slash", bytes: Array(#"{"a":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)),
        Sample("an encoded surrogate", bytes: Array(#"{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)),
        Sample("above U+10FFFF", bytes: Array(#"{"a":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}"#.utf8)),
        Sample("a cut sequence", bytes: Array(#"{"a":""#.utf8) + [0xE2, 0x82] + Array(#""}"#.utf8)),
        Sample("a stray continuation byte", bytes: Array(#"{"a":""#.utf8) + [0x80] + Array(#""}"#.utf8)),
        Sample("65 levels", String(repeating: #"{"a":"#, count: 64) + "{}" + String(repeating: "}", count: 64)),
        Sample("65 levels of arrays", "{\"a\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"),
    ]

    @Test(arguments: good)
    func acceptsJSON(_ sample: Sample) throws {
        let report = try StrictJSON.check(Data(sample.bytes))
        #expect(report.duplicate == nil)
        #expect(report.valueProblem == nil)
        // Whatever the check accepts, Foundation reads too.
        #expect((try? JSONSerialization.jsonObject(with: Data(sample.bytes))) is [String: Any])
    }

    @Test(arguments: notJSON)
    func refusesWhatIsNotJSON(_ sample: Sample) {
        #expect(throws: StrictJSON.SyntaxError.self) { _ = try StrictJSON.check(Data(sample.bytes)) }
    }

    @Test(arguments: [
        (#"{"type":"status","type":"tag.create"}"#, "type", "type", ""),
        (#"{"body":{"name":"A","name":"B"}}"#, "name", "body.name", "body"),
        (#"{"body":{"splits":[{"a":1},{"memo":"x","memo":"y"}]}}"#, "memo", "body.splits[1].memo", "body.splits[1]"),
        (#"{"a":1,"\u0061":2}"#, "a", "a", ""),
        ("{\"\u{E9}\":1,\"e\u{301}\":2}", "e\u{301}", "e\u{301}", ""),
        ("{\"K\":1,\"\u{212A}\":2}", "\u{212A}", "\u{212A}", ""),
        ("{" + (0..<100).map { #""m\#($0)":\#($0)"# }.joined(separator: ",") + #","m42":0}"#, "m42", "m42", ""),
    ])
    func findsDuplicateMemberNames(text: String, name: String, path: String, parent: String) throws {
        let report = try StrictJSON.check(Data(text.utf8))
        #expect(report.duplicate == StrictJSON.Duplicate(name: name, path: path, parent: parent))
    }

    @Test(arguments: [
        (#"{"body":{"notes":"nul\u0000after"}}"#, StrictJSON.ValueProblem.Kind.nulCharacter, "body.notes"),
        (#"{"key":"K\u0000A","body":{}}"#, .nulCharacter, "key"),
        (#"{"body":{"splits":[{"memo":"x"},{"memo":"\u0000"}]}}"#, .nulCharacter, "body.splits[1].memo"),
        (#"{"body":{"na\u0000me":"x"}}"#, .nulCharacter, #"body.na\u0000me"#),
        (#"{"body":{"tags":["a","b\u0000"]}}"#, .nulCharacter, "body.tags[1]"),
        (#"{"v":1.0}"#, .notAnInteger, "v"),
        (#"{"id":1e2}"#, .notAnInteger, "id"),
        (#"{"body":{"ids":[1,2,3E0]}}"#, .notAnInteger, "body.ids[2]"),
        (#"{"body":{"a":-0.5,"b":"\u0000"}}"#, .notAnInteger, "body.a"),
        (#"{"body":{"ok":[9223372036854775807,-9223372036854775808,999999999999999999],"big":9223372036854775808}}"#, .outOfRange, "body.big"),
        (#"{"body":{"small":-9223372036854775809}}"#, .outOfRange, "body.small"),
        (#"{"body":{"huge":[100000000000000000000]}}"#, .outOfRange, "body.huge[0]"),
    ])
    func findsTheFirstRefusedValueWithItsPath(text: String, kind: StrictJSON.ValueProblem.Kind, path: String) throws {
        let report = try StrictJSON.check(Data(text.utf8))
        #expect(report.valueProblem == StrictJSON.ValueProblem(kind: kind, path: path))
    }

    @Test func readsTheIdExactly() throws {
        #expect(try StrictJSON.check(Data("{\"id\":\"\u{FEFF}a\\n\\u00e9\"}".utf8)).id == "\u{FEFF}a\né")
        #expect(try StrictJSON.check(Data(#"{"body":{"id":"inner"},"id":"outer"}"#.utf8)).id == "outer")
        #expect(try StrictJSON.check(Data(#"{"id":7}"#.utf8)).id == nil)
        #expect(try StrictJSON.check(Data(#"{"id":"a","\u0069d":"b"}"#.utf8)).id == nil)
        #expect(try StrictJSON.check(Data(#"{"type":"x"}"#.utf8)).id == nil)
    }

    @Test func namesTheProblemAndWhereItIs() {
        #expect(throws: StrictJSON.SyntaxError(reason: "a trailing comma before '}' (expected a member name)", offset: 7)) {
            _ = try StrictJSON.check(Data(#"{"a":1,}"#.utf8))
        }
        #expect(throws: StrictJSON.SyntaxError(reason: "the frame starts with a byte order mark (U+FEFF); frames are UTF-8 without one", offset: 0)) {
            _ = try StrictJSON.check(Data([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        }
    }

    /// Not a benchmark (debug builds are slow): a frame of the largest size is checked in one
    /// linear pass. The release figure is in docs/decisions.md (D92).
    @Test func checksALargeImportFrame() throws {
        let item = #"{"transaction":{"kind":"expense","walletId":1,"amount":"12.50","date":"2026-11-21","payee":"Café Ünïcode","notes":"line\nbreak \"quoted\"","splits":[{"amount":"6.25","categoryId":1},{"amount":"6.25","categoryId":2,"memo":"m"}]}}"#
        var text = #"{"v":1,"id":"big","type":"tx.import","ts":"2026-11-21T12:00:00.000Z","key":"k","body":{"items":["#
        text += Array(repeating: item, count: 10_000).joined(separator: ",")
        text += "]}}"
        let report = try StrictJSON.check(Data(text.utf8))
        #expect(report.id == "big")
        #expect(report.duplicate == nil && report.valueProblem == nil)
    }
}

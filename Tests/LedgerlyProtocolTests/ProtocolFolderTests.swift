import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
@testable import LedgerlyStore
import Testing

/// Every request type a service answers, from the store's route table (which also names the
/// ones other services answer): the code's side of the comparison with `protocol/`.
enum MessageCatalog {
    static let requests: [MessageType: any RequestBody.Type] = Dictionary(
        uniqueKeysWithValues: StoreRouteTable.all(startedAt: "").routes.knownRequestTypes.map { ($0.messageType, $0) })
    static let types: [MessageType] = requests.keys.sorted()

    static func body(_ type: MessageType) -> any RequestBody.Type { requests[type]! }
}

/// Keeps `protocol/` and the Swift types in agreement: every message type has a schema and an
/// example, and every example decodes with the Swift type it documents. (protocol/validate.py
/// checks the other direction: every example validates against its JSON Schema.)
@Suite struct ProtocolFolderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("protocol")

    static func file(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// Example files for a schema name: the exact file and its variants (`tx.create.split.json`).
    static func examples(for name: String, in folder: String = "examples") -> [URL] {
        let directory = root.appendingPathComponent(folder)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        // A variant (`tx.create.split.json`) shares the prefix; so does a longer type
        // (`convert.history.json`), which the `type` inside tells apart.
        return files.filter { $0 == "\(name).json" || ($0.hasPrefix("\(name).") && !$0.hasPrefix("\(name).ok") && $0.hasSuffix(".json")) }
            .map { directory.appendingPathComponent($0) }
            .filter { url in
                let type = (try? JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])?["type"] as? String
                return type == name
            }
    }

    /// PROTOCOL.md names the writes twice, in §5's sentence and in §17's Python client; both must
    /// be exactly the `WriteRequest` types (the restore messages were once missing from §17).
    @Test func protocolListsEveryWriteAndNothingElse() throws {
        let text = try String(contentsOf: Self.file("PROTOCOL.md"), encoding: .utf8)
        let writes = Set(MessageCatalog.types.filter { MessageCatalog.body($0).isWrite }.map(\.rawValue))
        let sentence = try #require(text.range(of: "Writes are the message types that change the ledger:")).upperBound
        let sentenceEnd = try #require(text.range(of: "(Swift: the request types that conform to `WriteRequest`)", range: sentence..<text.endIndex)).lowerBound
        let named = Set(text[sentence..<sentenceEnd].matches(of: /`([a-z.]+)`/).map { String($0.1) })
        #expect(named == writes, "§5 lists \(named.symmetricDifference(writes).sorted()) wrongly")
        let block = try #require(text.range(of: "WRITES = {")).upperBound
        let blockEnd = try #require(text.range(of: "}", range: block..<text.endIndex)).lowerBound
        let python = Set(text[block..<blockEnd].matches(of: /"([a-z.]+)"/).map { String($0.1) })
        #expect(python == writes, "§17's WRITES lists \(python.symmetricDifference(writes).sorted()) wrongly")
    }

    /// §7 lists what the store answers before setup: exactly the types whose
    /// `allowedBeforeSetup` is true (`ledger.backup` was once missing).
    @Test func protocolListsEveryRequestAllowedBeforeSetup() throws {
        let text = try String(contentsOf: Self.file("PROTOCOL.md"), encoding: .utf8)
        let allowed = Set(MessageCatalog.types.filter { MessageCatalog.body($0).allowedBeforeSetup }.map(\.rawValue))
        let start = try #require(text.range(of: "Allowed before setup (Swift: the request types whose `allowedBeforeSetup` is true):")).upperBound
        let end = try #require(text.range(of: "The rates messages are allowed", range: start..<text.endIndex)).lowerBound
        let named = Set(text[start..<end].matches(of: /`([a-z.]+)`/).map { String($0.1) })
        #expect(named == allowed, "§7 lists \(named.symmetricDifference(allowed).sorted()) wrongly")
    }

    /// The request examples in `protocol/examples` name exactly the types the code knows.
    @Test func examplesNameEveryKnownRequestTypeAndNoOther() throws {
        let directory = Self.root.appendingPathComponent("examples")
        var named = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".json") {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(file))) as? [String: Any]
            if let type = object?["type"] as? String, type != "error", !type.hasSuffix(".ok") { named.insert(type) }
        }
        #expect(named == Set(MessageCatalog.types.map(\.rawValue)), "\(named.symmetricDifference(MessageCatalog.types.map(\.rawValue)).sorted())")
    }

    @Test(arguments: MessageCatalog.types)
    func requestHasASchemaAndExamplesThatDecode(type: MessageType) throws {
        #expect(FileManager.default.fileExists(atPath: Self.file("schemas/\(type.rawValue).json").path))
        let examples = Self.examples(for: type.rawValue)
        #expect(!examples.isEmpty, "no example for \(type.rawValue)")
        for example in examples {
            let data = try Data(contentsOf: example)
            let header = try RequestDecoding.header(of: data)
            #expect(header.type == type.rawValue)
            #expect(throws: Never.self, "\(example.lastPathComponent)") { try Self.decodeRequest(MessageCatalog.body(type), data) }
            if MessageCatalog.body(type).isWrite { #expect(header.key != nil, "\(example.lastPathComponent) is a write without a key") }
        }
    }

    @Test(arguments: MessageCatalog.types)
    func replyHasASchemaAndExamplesThatDecode(type: MessageType) throws {
        #expect(FileManager.default.fileExists(atPath: Self.file("schemas/\(type.replyType).json").path))
        let directory = Self.root.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 == "\(type.replyType).json" || $0.hasPrefix("\(type.replyType).") }
            .filter { name in
                let object = try? JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? [String: Any]
                return object?["type"] as? String == type.replyType
            }
        #expect(!files.isEmpty, "no example for \(type.replyType)")
        for name in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(throws: Never.self, "\(name)") { try Self.decodeReply(MessageCatalog.body(type), data) }
        }
    }

    @Test(arguments: ChangeEventType.allCases)
    func eventHasASchemaAndExamplesThatDecode(type: ChangeEventType) throws {
        #expect(FileManager.default.fileExists(atPath: Self.file("schemas/events/\(type.rawValue).json").path))
        let examples = Self.examples(for: type.rawValue, in: "examples/events")
        #expect(!examples.isEmpty)
        for example in examples {
            let event = try JSONDecoder().decode(ChangeEvent.self, from: Data(contentsOf: example))
            #expect(event.type == type.rawValue)
            #expect(event.entity == type.entity)
            let data = try MessageCoding.encode(event.data)
            #expect(throws: Never.self) { _ = try JSONDecoder().decode(type.dataType, from: data) }
            // The typed payload the subscriber services switch over reads it as a known change.
            let payload = try event.payload()
            if case .unknown = payload { Issue.record("\(example.lastPathComponent) read as an unknown change") }
        }
    }

    @Test func heartbeatAndErrorsHaveSchemasAndExamplesThatDecode() throws {
        let heartbeat = try JSONDecoder().decode(Heartbeat.self, from: Data(contentsOf: Self.file("examples/events/heartbeat.json")))
        #expect(heartbeat.type == Heartbeat.topic)
        let directory = Self.root.appendingPathComponent("examples")
        let errors = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("error") }
        #expect(!errors.isEmpty)
        var codes = Set<ErrorCode>()
        for name in errors {
            let envelope = try JSONDecoder().decode(Envelope<ErrorBody>.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
            #expect(envelope.type == "error")
            codes.insert(envelope.body.code)
        }
        #expect(codes.isSuperset(of: [.validationFailed, .setupRequired, .unknownType, .unsupportedVersion, .malformed]))
    }

    @Test func protocolDocumentNamesEveryMessageTypeAndErrorCode() throws {
        let document = try String(contentsOf: Self.file("PROTOCOL.md"), encoding: .utf8)
        for type in MessageCatalog.types { #expect(document.contains("`\(type.rawValue)`"), "\(type.rawValue)") }
        for code in ErrorCode.allCases { #expect(document.contains("`\(code.rawValue)`"), "\(code.rawValue)") }
        for event in ChangeEventType.allCases { #expect(document.contains("`\(event.rawValue)`"), "\(event.rawValue)") }
    }

    /// PROTOCOL.md, docs/rates.md and the `rate` schema state the one range `ExchangeRate`
    /// enforces (D88), and no other.
    @Test func theDocumentsStateTheRateRangeTheCodeEnforces() throws {
        let range = ExchangeRate.rangeDescription
        #expect(range == "0.000000000001 to 1000000000000")
        let common = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file("schemas/common.json"))) as? [String: Any]
        let rate = ((common?["$defs"] as? [String: Any])?["rate"] as? [String: Any])?["description"] as? String
        #expect(rate?.contains(range.replacingOccurrences(of: " to ", with: " and ")) == true)
        let documents = [Self.file("PROTOCOL.md"), Self.root.deletingLastPathComponent().appendingPathComponent("docs/rates.md")]
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            #expect(text.contains(range), "\(document.lastPathComponent)")
            #expect(!text.contains("10⁻⁹ to 10⁹") && !text.contains("0.000000001 to 1000000000 "), "\(document.lastPathComponent)")
        }
    }

    private static func decodeRequest<Body: RequestBody>(_ type: Body.Type, _ data: Data) throws {
        _ = try RequestDecoding.request(Body.self, from: data)
    }

    private static func decodeReply<Body: RequestBody>(_ type: Body.Type, _ data: Data) throws {
        _ = try JSONDecoder().decode(Envelope<Body.Reply>.self, from: data)
    }
}

import FoundationEssentials
import LedgerlyProtocol

/// A reply frame read in one pass of the JSON decoder: the header, then the body as the reply,
/// the error body, or nothing when the type is not the one expected.
///
/// Why: reading the header and then the whole envelope parsed a frame twice (three times with
/// the `re` check), and each parse of a large reply (`invest.holdings`) is costly in Foundation
/// on Linux before any of it is decoded (D143). What is checked is the same: the header as
/// `EnvelopeHeader` reads it, the body as `Envelope` reads it.
struct ReplyFrame<Reply: Decodable>: Decodable {
    /// Where `RequestClient.decodeReply` puts the reply type it expects.
    static var expectedTypeKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "ledgerly.expectedReplyType")! }

    enum Outcome {
        case reply(Reply)
        case rejected(ErrorBody)
        /// An error reply whose body is not an `ErrorBody`.
        case unreadableError
        case wrongType(String)
        case unreadableBody(any Error)
    }

    private enum BodyKey: String, CodingKey { case body }

    let outcome: Outcome

    /// Throws only when the header cannot be read.
    init(from decoder: any Decoder) throws {
        let header = try EnvelopeHeader(from: decoder)
        let container = try decoder.container(keyedBy: BodyKey.self)
        if header.type == "error" {
            outcome = (try? container.decode(ErrorBody.self, forKey: .body)).map { .rejected($0) } ?? .unreadableError
        } else if header.type != decoder.userInfo[Self.expectedTypeKey] as? String {
            outcome = .wrongType(header.type)
        } else {
            do { outcome = .reply(try container.decode(Reply.self, forKey: .body)) } catch { outcome = .unreadableBody(error) }
        }
    }
}

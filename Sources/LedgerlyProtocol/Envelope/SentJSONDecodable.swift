/// A request body that can be read straight from the frame as `RequestDecoding` parsed it
/// (`SentJSON`), instead of a second parse by `JSONDecoder`: for the bodies that come in bulk
/// (`tx.import`, D359).
///
/// `init?(sent:)` reads what `JSONDecoder` would read and gives nil for anything it would refuse;
/// `RequestDecoding` then decodes with `JSONDecoder`, so every error is worded as before.
public protocol SentJSONDecodable {
    init?(sent: SentJSON)
}

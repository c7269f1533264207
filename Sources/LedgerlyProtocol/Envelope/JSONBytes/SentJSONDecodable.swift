/// A request body that can be read straight from the frame as `RequestDecoding` parsed it
/// (`SentJSON`), instead of a second parse by `JSONDecoder`: for the bodies that come in bulk
/// (`tx.import`, D359).
///
/// `init?(sent:)` reads what `JSONDecoder` would read and gives nil for anything it would refuse,
/// and for a member with a non-null value that the type (or a type it nests) does not know;
/// `RequestDecoding` then decodes with `JSONDecoder` and runs the unknown-field check, so every
/// error is worded as before. A body it reads skips that check: it cannot hold an unknown field.
public protocol SentJSONDecodable {
    init?(sent: SentJSON)
}

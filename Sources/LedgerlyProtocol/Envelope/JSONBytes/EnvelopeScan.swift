/// Reading a reply envelope's header without decoding its body.
public enum EnvelopeScan {
    /// The envelope's `re` (top-level member) without reading the body into values: the body is
    /// stepped over. nil when the frame is not an object or `re` is absent or not a string.
    public static func replyTo(_ frame: [UInt8]) -> String? {
        frame.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            var replyTo: String?
            do {
                try reader.object { reader, key in
                    if key == "re" { replyTo = try reader.nullableString() } else { try reader.skipValue() }
                }
            } catch {
                return nil
            }
            return replyTo
        }
    }
}

/// The protocol's major version (`v` in every envelope). A receiver answers any other major
/// version with `unsupported_version`; additions that old peers can ignore keep the same major.
public enum ProtocolVersion {
    public static let major = 1
}

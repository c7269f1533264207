/// Why the store did not take a file's rates; decides where the file goes.
public enum DropFolderDeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store refused the rates and stored none of them: the file is wrong in a way only the
    /// store can tell (a currency not in use, a profile missing), so it goes to `rejected/`.
    case rejected(String)
    /// The store could not be asked (down, restarting, timed out): the file stays where it is
    /// and is tried again on the next scan.
    case unavailable(String)

    public var description: String {
        switch self {
        case .rejected(let message): "rejected: \(message)"
        case .unavailable(let message): "unavailable: \(message)"
        }
    }
}

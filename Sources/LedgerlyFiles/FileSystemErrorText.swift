import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The reason to show for an error `FileManager` threw: the system's message for the `errno`
/// underneath ("Permission denied"), where Foundation's `localizedDescription` (not in
/// FoundationEssentials, D380) gave a sentence naming the file, which every caller names already.
public enum FileSystemErrorText {
    public static func reason(_ error: any Error) -> String {
        if let posix = error as? PosixFileError { return posix.reason }
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return "\(error)"
    }
}

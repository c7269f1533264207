import FoundationEssentials

/// Where this `ledgerly` binary is, for what is installed beside it (the services, the systemd
/// units of `make install`, the source checkout's `deploy/`).
enum OwnExecutable {
    /// The binary's path, symbolic links followed (`/proc/self/exe`), else as it was started.
    static var path: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// A program in the same folder (`ledgerly-rates` next to `ledgerly`).
    static func sibling(_ name: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
    }
}

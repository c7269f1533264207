import Foundation
import LedgerlyTesting

/// One of the Python servers beside this file (`provider_server.py`, `webhook_receiver.py`) on a
/// free loopback port, with a temporary state folder of its own. The script prints its port
/// first; it stops when this object goes (its stdin closes) and the folder goes with it.
final class LoopbackScript {
    let port: Int
    /// Where the script keeps what it saw, and looks for switches the test sets.
    let state: URL
    private let process = Process()
    private let input = Pipe()

    /// Runs `python3 <script> <arguments(state)>`; `name` prefixes the state folder's name.
    init(_ script: String, name: String, arguments: (URL) -> [String]) throws {
        state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + arguments(state)
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw HarnessError.timedOut("the port of \(script)") }
        self.port = port
    }

    /// Creates or removes the marker file `name` in the state folder.
    func setMarker(_ name: String, _ present: Bool) {
        let marker = state.appendingPathComponent(name)
        if present { _ = FileManager.default.createFile(atPath: marker.path, contents: nil) } else { try? FileManager.default.removeItem(at: marker) }
    }

    /// The text of a file the script writes in its state folder, empty until it exists.
    func read(_ name: String) -> String {
        (try? String(contentsOf: state.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: state)
    }
}

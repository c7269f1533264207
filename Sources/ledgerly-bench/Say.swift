import Foundation

/// Prints a line at once, even into a file or pipe, so a long run shows its progress as it goes.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

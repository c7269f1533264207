import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Moves what a default home kept in its data directory before the XDG layout (D327) to the
/// XDG places: `rates.json` and `alerts.json` to the config directory, `state/` and `logs/`
/// entries to the state directory. Run by every service at start (`LedgerlyHome.prepare`).
///
/// Why every service, without a lock: the four start together, and each move is one `rename`,
/// atomic on one file system; a file another service moved first is simply gone. Nothing is
/// overwritten (a hard link, then an unlink): a file whose new place is taken stays where it was, and the
/// line says so. A file whose new place is on another file system stays too, with a line: a copy
/// could be read half-made by another service starting at the same moment.
struct HomeLayoutMove {
    let home: LedgerlyHome

    /// One line per file moved or left in place.
    func run() -> [String] {
        var lines: [String] = []
        for name in ["rates.json", "alerts.json"] {
            move(home.root.appendingPathComponent(name), to: home.configDirectory.appendingPathComponent(name), into: &lines)
        }
        for (old, new) in [(home.root.appendingPathComponent("state"), home.stateDirectory), (home.root.appendingPathComponent("logs"), home.logDirectory)]
        where old.path != new.path {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: old.path)) ?? []
            for name in names.sorted() {
                move(old.appendingPathComponent(name), to: new.appendingPathComponent(name), into: &lines)
            }
            // Gone when empty (another service may still be moving the last entries: no matter).
            _ = rmdir(old.path)
        }
        return lines
    }

    private func move(_ source: URL, to destination: URL, into lines: inout [String]) {
        guard source.path != destination.path, FileManager.default.fileExists(atPath: source.path) else { return }
        // The check that the place is free and the move are one step, so a file another process
        // put there meanwhile is never replaced: a file is linked to its new name (which fails
        // when the name is taken) and then unlinked from the old; a folder is renamed, which
        // only ever replaces an empty folder.
        var isFolder = false
        _ = FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder)
        let moved = isFolder ? rename(source.path, destination.path) == 0 : link(source.path, destination.path) == 0
        if moved {
            if !isFolder { unlink(source.path) }
            lines.append("moved \(source.path) to \(destination.path) (XDG layout)")
            return
        }
        let code = errno == ENOTEMPTY ? EEXIST : errno
        switch code {
        case ENOENT:
            return
        case EEXIST:
            // Another service starting at this moment linked it first: the same file, no news.
            if Self.sameFile(source, destination) || !FileManager.default.fileExists(atPath: source.path) { return }
            lines.append("left \(source.path) in place: \(destination.path) exists already (XDG layout); merge them by hand")
        case EXDEV:
            // Another file system: not moved by the services, whose copy could be seen half-made.
            lines.append("left \(source.path) in place: \(destination.path) is on another file system; move it by hand, with the services stopped")
        default:
            lines.append("could not move \(source.path) to \(destination.path): \(String(cString: strerror(code)))")
        }
    }

    private static func sameFile(_ a: URL, _ b: URL) -> Bool {
        var first = stat(), second = stat()
        guard stat(a.path, &first) == 0, stat(b.path, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}

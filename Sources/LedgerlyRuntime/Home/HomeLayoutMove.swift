import Foundation

/// Moves what a default home kept in its data directory before the XDG layout (D327) to the
/// XDG places: `rates.json` and `alerts.json` to the config directory, `state/` and `logs/`
/// entries to the state directory. Run by every service at start (`LedgerlyHome.prepare`).
///
/// Why every service, without a lock: the four start together, and each move is one `rename`,
/// atomic on one file system; a file another service moved first is simply gone. Nothing is
/// overwritten: a file whose new place is taken stays where it was, and the line says so. Files
/// on another file system are copied, then removed.
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
        if FileManager.default.fileExists(atPath: destination.path) {
            lines.append("left \(source.path) in place: \(destination.path) exists already (XDG layout); merge them by hand")
            return
        }
        if rename(source.path, destination.path) == 0 {
            lines.append("moved \(source.path) to \(destination.path) (XDG layout)")
            return
        }
        let code = errno
        if code == ENOENT { return }
        if code == EXDEV {
            do {
                try FileManager.default.copyItem(at: source, to: destination)
                try FileManager.default.removeItem(at: source)
                lines.append("moved \(source.path) to \(destination.path) (XDG layout)")
            } catch {
                lines.append("could not move \(source.path) to \(destination.path): \(error.localizedDescription)")
            }
            return
        }
        lines.append("could not move \(source.path) to \(destination.path): \(String(cString: strerror(code)))")
    }
}

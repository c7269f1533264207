import Foundation
import LedgerlyRuntime
import Testing

/// Issue 44, finding 9: a service (root's, say) must not write through a symbolic link planted at
/// its lock file's path, nor run on a home another user owns.
@Suite struct HomeSafetyTests {
    static func temporaryRoot() -> URL {
        URL(fileURLWithPath: "/tmp").appendingPathComponent("hs-" + String(UUID().uuidString.prefix(8)).lowercased())
    }

    @Test func aLockFileThatIsASymbolicLinkIsRefusedAndItsTargetUntouched() throws {
        let folder = Self.temporaryRoot()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt")
        try Data("precious\n".utf8).write(to: victim)
        let lock = folder.appendingPathComponent("store.lock")
        try FileManager.default.createSymbolicLink(atPath: lock.path, withDestinationPath: victim.path)
        do {
            _ = try InstanceLock(path: lock.path)
            Issue.record("a lock was taken through a symbolic link")
        } catch {
            guard case .symbolicLink(let path) = error else { Issue.record("expected symbolicLink, got \(error)"); return }
            #expect(path == lock.path)
            #expect(error.description.contains("symbolic link"))
        }
        // Before O_NOFOLLOW, the victim was truncated and got the service's pid.
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        // A plain lock file still works.
        let plain = folder.appendingPathComponent("sync.lock")
        let taken = try InstanceLock(path: plain.path)
        #expect(taken.path == plain.path)
    }

    @Test func aHomeOwnedByAnotherUserIsRefused() throws {
        // Only root can hand a folder to another user; as anyone else this case cannot be made here.
        guard geteuid() == 0 else { return }
        let root = Self.temporaryRoot()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let home = LedgerlyHome(root: root)
        try home.prepare()
        #expect(chown(root.path, 65_534, 65_534) == 0)
        do {
            try home.prepare()
            Issue.record("prepared a home owned by uid 65534 while running as root")
        } catch {
            guard case .notOwner(let path, let owner, let user) = error else { Issue.record("expected notOwner, got \(error)"); return }
            #expect(path == root.path && owner == 65_534 && user == 0)
            #expect(error.description.contains("belongs to user id 65534"))
        }
    }

    /// D462: a home that is a symbolic link is ours only when the link and its target both are.
    /// Another user's link to a folder of ours (root's, say) is refused before anything is made
    /// or chmod'ed there; so is our link to a folder of theirs.
    @Test func aHomeThatIsAnotherUsersLinkToOurFolderIsRefused() throws {
        // Only root can hand a link to another user; as anyone else this case cannot be made here.
        guard geteuid() == 0 else { return }
        let folder = Self.temporaryRoot()
        let target = folder.appendingPathComponent("ours")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("home")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        #expect(lchown(link.path, 65_534, 65_534) == 0)
        do {
            try LedgerlyHome(root: link).prepare()
            Issue.record("prepared a home through a link owned by uid 65534 while running as root")
        } catch {
            guard case .notOwner(let path, let owner, let user) = error else { Issue.record("expected notOwner, got \(error)"); return }
            #expect(path == link.path && owner == 65_534 && user == 0)
        }
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)

        // Our own link to a folder another user owns: refused too.
        #expect(lchown(link.path, 0, 0) == 0)
        #expect(chown(target.path, 65_534, 65_534) == 0)
        #expect(throws: HomeError.self) { try LedgerlyHome(root: link).prepare() }
        // Our link to our folder is a home like any other.
        #expect(chown(target.path, 0, 0) == 0)
        try LedgerlyHome(root: link).prepare()
    }
}

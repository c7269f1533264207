import FoundationEssentials
import Glibc
import LedgerlyRuntime

/// The hub user's password for `sync enable`, from anywhere but the command line (D431): a
/// password in `--url` is refused, since every local user can read a running command's arguments
/// (`ps`) and the shell keeps them in its history.
///
/// In order: `--password-file F` (its first line; a file every user may read is refused, as for the
/// passphrase file); else a libpq password file, when there is one (`?passfile=`, `$PGPASSFILE`,
/// `~/.pgpass`): ledgerly-sync reads it at each connection, as libpq does, and the URL names it
/// (`passfile=`); else, at a terminal, a prompt without echo (an empty answer: no password, for a hub that
/// asks none); else no password.
///
/// A password read here is put into the URL that goes to ledgerly-sync over its private socket
/// and is kept in `sync/hub.json` (mode 0600), never in an argument.
enum HubPasswordInput {
    static func url(_ url: String, passwordFile: String?) throws -> String {
        guard !HubURLText.hasPassword(url) else {
            throw CLIFailure(
                message: "--url holds a password, which every local user could read in `ps` and your shell keeps in its history",
                status: .refused,
                hint: "Take it out of the URL (postgres://user@host/db) and give it with --password-file FILE (first line, chmod 600), in ~/.pgpass as host:port:database:user:password (chmod 600), or type it when asked.")
        }
        if let passwordFile {
            let password: String
            do {
                password = try PassphraseFile.read(path: passwordFile)
            } catch .missing {
                throw CLIFailure(message: "the password file \(passwordFile) does not exist", status: .refused)
            } catch .emptyPassphrase {
                throw CLIFailure(message: "the password file \(passwordFile) starts with an empty line: put the password on its first line", status: .refused)
            } catch {
                throw CLIFailure(message: error.description.replacing("passphrase", with: "password"), status: .refused)
            }
            return HubURLText.inserting(password: password, into: url)
        }
        if HubURLText.parameter("passfile", in: url) != nil { return url }
        if let file = libpqPasswordFile() { return HubURLText.adding(parameter: "passfile", value: file, to: url) }
        guard isatty(STDIN_FILENO) == 1 else { return url }
        let typed = try PassphraseInput.ask("Password of the hub's user (Enter if it asks none): ")
        return typed.isEmpty ? url : HubURLText.inserting(password: typed, into: url)
    }

    /// libpq's password file for this user: `$PGPASSFILE`, else `~/.pgpass` when it exists. Named
    /// in the URL (`passfile=`) so ledgerly-sync reads the same file whatever its own environment
    /// (a service manager's has no `$PGPASSFILE`).
    private static func libpqPasswordFile() -> String? {
        if let variable = getenv("PGPASSFILE"), variable.pointee != 0 {
            let path = String(cString: variable)
            return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
        guard let home = getenv("HOME") else { return nil }
        let path = String(cString: home) + "/.pgpass"
        return access(path, F_OK) == 0 ? path : nil
    }
}

import Foundation
import LedgerlySync
import Testing

@Suite("Hub URL parsing and redaction")
struct HubAddressTests {
    @Test func tcpURLWithEverything() throws {
        let address = try HubAddress(parsing: "postgres://sync:s3cret@hub.example.org:6543/ledgers?sslmode=require")
        #expect(address.endpoint == .tcp(host: "hub.example.org", port: 6543))
        #expect(address.user == "sync")
        #expect(address.password == "s3cret")
        #expect(address.database == "ledgers")
        #expect(address.tls == .require)
        #expect(address.serverName == "hub.example.org:6543")
    }

    @Test func defaultsAndPostgresqlScheme() throws {
        let address = try HubAddress(parsing: "postgresql://sync@10.0.0.1/ledgers")
        #expect(address.endpoint == .tcp(host: "10.0.0.1", port: 5432))
        #expect(address.password == nil)
        // TLS with the certificate verified is the default over TCP, loopback included (D430).
        #expect(address.tls == .verifyFull)
        #expect(!address.isPlainTCP)
        #expect(try HubAddress(parsing: "postgres://u@127.0.0.1/db").tls == .verifyFull)
        let plain = try HubAddress(parsing: "postgres://u@127.0.0.1/db?sslmode=disable")
        #expect(plain.tls == .disable && plain.isPlainTCP)
        // A unix socket needs none.
        #expect(try HubAddress(parsing: "postgres://u@/db?host=/run/postgresql").tls == .disable)
        let withFile = try HubAddress(parsing: "postgres://u@h/db?sslrootcert=/ca.pem&passfile=/home/u/.pgpass")
        #expect(withFile.rootCertificatePath == "/ca.pem" && withFile.passwordFilePath == "/home/u/.pgpass" && withFile.tls == .verifyFull)
    }

    @Test func ipv6HostInBrackets() throws {
        let address = try HubAddress(parsing: "postgres://u:p@[::1]:5433/db")
        #expect(address.endpoint == .tcp(host: "::1", port: 5433))
        #expect(address.serverName == "[::1]:5433")
    }

    @Test func unixSocketForms() throws {
        let plain = try HubAddress(parsing: "postgres://u@/db?host=/run/postgresql")
        #expect(plain.endpoint == .unixSocket(path: "/run/postgresql/.s.PGSQL.5432"))
        let withPort = try HubAddress(parsing: "postgres://u:p@:6000/db?host=/tmp/pg/")
        #expect(withPort.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.6000"))
        let portParameter = try HubAddress(parsing: "postgres://u@/db?host=%2Ftmp%2Fpg&port=7000")
        #expect(portParameter.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.7000"))
    }

    @Test func percentEncodingAndSpecialPasswords() throws {
        let encoded = try HubAddress(parsing: "postgres://me%40home:p%3Aw%2Fd%25@h/my%20db")
        #expect(encoded.user == "me@home")
        #expect(encoded.password == "p:w/d%")
        #expect(encoded.database == "my db")
        // Unencoded "@", "/", "?" and "#" in a password: the last "@" ends the user information.
        let raw = try HubAddress(parsing: "postgres://me:a@b/c?d#e@h:5432/db")
        #expect(raw.password == "a@b/c?d#e")
        #expect(raw.endpoint == .tcp(host: "h", port: 5432))
        #expect(raw.description == "postgres://me:***@h:5432/db")
    }

    @Test func verifyFullWithRootCertificate() throws {
        let address = try HubAddress(parsing: "postgres://u:p@localhost/db?sslmode=verify-full&sslrootcert=/etc/hub-ca.pem")
        #expect(address.tls == .verifyFull)
        #expect(address.rootCertificatePath == "/etc/hub-ca.pem")
    }

    @Test func descriptionNeverShowsThePassword() throws {
        let secret = "Very-Secret-Hub-Password"
        let address = try HubAddress(parsing: "postgres://sync:\(secret)@hub:5432/db?sslmode=require")
        #expect(address.description == "postgres://sync:***@hub:5432/db?sslmode=require")
        #expect(!"\(address)".contains(secret))
        #expect(!String(reflecting: address).contains(secret))
        var dumped = ""
        dump(address, to: &dumped)
        #expect(!dumped.contains(secret))
        // No password: nothing to hide, the URL as given.
        #expect(try HubAddress(parsing: "postgres://sync@hub/db").description == "postgres://sync@hub/db")
    }

    @Test(arguments: [
        ("mysql://u:p@h/db", HubAddressError.unsupportedScheme("mysql")),
        ("hub.example.org", .notAURL),
        (" postgres://u@h/db", .surroundingWhitespace),
        ("postgres://h/db", .missingUser),
        ("postgres://:p@h/db", .missingUser),
        ("postgres://u:p@h", .missingDatabase),
        ("postgres://u:p@h/", .missingDatabase),
        ("postgres://u:p@h/a/b", .invalidDatabase("a/b")),
        ("postgres://u:p@h:99999/db", .invalidPort("99999")),
        ("postgres://u:p@h:x1/db", .invalidPort("x1")),
        ("postgres://u:p@/db", .missingHost),
        ("postgres://u:p@h/db?host=/tmp", .hostTwice),
        ("postgres://u:p@/db?host=tmp", .socketFolderNotAbsolute("tmp")),
        ("postgres://u:p@/db?host=/tmp&sslmode=require", .tlsOverUnixSocket),
        ("postgres://u:p@h/db?sslmode=prefer", .unsupportedSSLMode("prefer")),
        ("postgres://u:p@h/db?sslmode=verify-ca", .unsupportedSSLMode("verify-ca")),
        ("postgres://u:p@h/db?application_name=x", .unknownParameter("application_name")),
        ("postgres://u:p@h/db?sslmode=require&sslmode=disable", .repeatedParameter("sslmode")),
        ("postgres://u:p@h/db?sslrootcert=/ca.pem&sslmode=disable", .rootCertificateWithoutVerify),
        ("postgres://u@h/db?passfile=relative", .invalidParameter(name: "passfile", value: "relative")),
        ("postgres://u:p%zz@h/db", .invalidPercentEncoding(part: "password")),
        ("postgres://u:p@h/db#frag", .fragmentNotAllowed),
        ("postgres://u:p@[::1/db", .invalidHost("[::1")),
    ])
    func malformedURLsAreRefusedByName(url: String, expected: HubAddressError) {
        #expect(throws: expected) { try HubAddress(parsing: url) }
    }

    @Test func refusalsNeverRepeatThePassword() {
        let secret = "Secret%zzPassword"
        do {
            _ = try HubAddress(parsing: "postgres://u:\(secret)@h/db")
            Issue.record("accepted a bad percent-encoding")
        } catch {
            #expect(!error.description.contains("Secret"))
            #expect(error.description.contains("password"))
        }
    }
}

import Crypto
import Foundation
import LedgerlyRuntime
import NIOSSL
import SwiftASN1
import X509

/// ledgerly-web's TLS identity for serving beyond loopback (D590): a self-signed certificate
/// over a P-256 key, made on the first start that needs it and reused on every later one, so a
/// phone that checked its fingerprint once can keep trusting it. Both files are 0600 in the
/// data directory's `web/` (0700). A pair that cannot be read is refused with the file named,
/// never silently replaced: a new certificate would break every phone's trust. To make a new
/// one, remove both files (and pair again).
public struct WebCertificate: Sendable {
    /// How long a new certificate is valid: browsers check a self-signed one by its fingerprint,
    /// not by its dates, and a short life would only make the owner pair again.
    public static let validityDays = 3650

    public let certificateDER: [UInt8]
    public let privateKeyPEM: String

    /// SHA-256 of the certificate's DER, as browsers show it: 32 upper-case hex pairs with colons.
    public var fingerprint: String { Self.fingerprint(der: certificateDER) }

    public static func fingerprint(der: [UInt8]) -> String {
        SHA256.hash(data: der).map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined(separator: ":")
    }

    /// The certificate and key in `paths`, made first when neither exists. `created` says which.
    public static func loadOrCreate(paths: WebAccessPaths, host: String, now: Date = Date()) throws -> (certificate: WebCertificate, created: Bool) {
        let manager = FileManager.default
        let haveCertificate = manager.fileExists(atPath: paths.certificate.path), haveKey = manager.fileExists(atPath: paths.privateKey.path)
        if haveCertificate != haveKey {
            let missing = haveCertificate ? paths.privateKey.path : paths.certificate.path
            throw WebConfigurationError("\(missing) is missing beside its pair; remove \(haveCertificate ? paths.certificate.path : paths.privateKey.path) too to make a new certificate (paired phones will see a new fingerprint)")
        }
        if haveCertificate { return (try load(paths: paths), false) }
        let made = try make(host: host, now: now)
        do {
            try SecureFile.makePrivateFolder(paths.folder)
            try SecureFile.writeAtomically(Data(made.privateKeyPEM.utf8), to: paths.privateKey)
            try SecureFile.writeAtomically(Data(try Certificate(derEncoded: made.certificateDER).serializeAsPEM().pemString.utf8), to: paths.certificate)
        } catch {
            throw WebConfigurationError("cannot keep the new certificate: \(error)")
        }
        return (made, true)
    }

    static func load(paths: WebAccessPaths) throws -> WebCertificate {
        func text(_ url: URL) throws -> String {
            do {
                return String(decoding: try SecureFile.readPrivate(url.path), as: UTF8.self)
            } catch {
                throw WebConfigurationError("\(error)")
            }
        }
        let certificate: Certificate, key: P256.Signing.PrivateKey
        do { certificate = try Certificate(pemEncoded: try text(paths.certificate)) } catch let error as WebConfigurationError { throw error } catch {
            throw WebConfigurationError("\(paths.certificate.path) is not a PEM certificate (\(error)); remove it and \(paths.privateKey.path) to make a new one")
        }
        let keyPEM = try text(paths.privateKey)
        do { key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM) } catch {
            throw WebConfigurationError("\(paths.privateKey.path) is not a P-256 private key in PEM (\(error)); remove it and \(paths.certificate.path) to make a new one")
        }
        guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw WebConfigurationError("\(paths.certificate.path) and \(paths.privateKey.path) do not belong together; remove both to make a new certificate")
        }
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return WebCertificate(certificateDER: serializer.serializedBytes, privateKeyPEM: keyPEM)
    }

    /// A new key and a self-signed certificate for it, naming this computer.
    static func make(host: String, now: Date) throws -> WebCertificate {
        let key = P256.Signing.PrivateKey()
        let machine = ProcessInfo.processInfo.hostName
        let name = try DistinguishedName {
            OrganizationName("Ledgerly")
            CommonName("Ledgerly on \(machine)")
        }
        var alternativeNames: [GeneralName] = [.dnsName("localhost")]
        if !machine.isEmpty, machine != "localhost" { alternativeNames.append(.dnsName(machine)) }
        var address = in_addr()
        if inet_pton(AF_INET, host, &address) == 1, host != "0.0.0.0" {
            alternativeNames.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(withUnsafeBytes(of: address) { Array($0) }))))
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(alternativeNames)
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(Double(validityDays) * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return WebCertificate(certificateDER: serializer.serializedBytes, privateKeyPEM: key.pemRepresentation)
    }

    /// The server side of TLS with this identity (TLS 1.2 and up, NIOSSL's default ciphers).
    public func serverConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: certificateDER, format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}

import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Where alerts go besides the log: `<config>/alerts.json`. Without that file only the log sink is
/// used. Every field but the names, commands, URLs and secrets has a default:
///
/// ```json
/// {
///   "commandHooks": [
///     {"name": "notify", "command": ["/bin/sh", "-c", "exec notify-send -- \"$LEDGERLY_ALERT_SUBJECT\" \"$LEDGERLY_ALERT_MESSAGE\""],
///      "timeoutSeconds": 10}
///   ],
///   "webhooks": [
///     {"name": "home", "url": "https://example.org/hooks/ledgerly", "secret": "…",
///      "signature": "hmac-sha256", "retryInitialSeconds": 5, "retryMaximumSeconds": 600,
///      "maximumAttempts": 20, "timeoutSeconds": 10}
///   ],
///   "httpsOnly": true
/// }
/// ```
///
/// Durations are seconds and may be fractional (`0.5`). Unknown keys are errors, so a typo does
/// not silently switch a sink off. The file holds webhook secrets: keep it mode 0600.
public struct AlertSinksConfiguration: Codable, Hashable, Sendable {
    public static let fileName = "alerts.json"

    /// A program run for every alert, with the alert as one line of JSON on stdin.
    public struct CommandHook: Codable, Hashable, Sendable {
        /// A desktop notification showing the alert's subject and message: `notify-send` reads no
        /// input, so the text comes from the environment, through a shell that quotes it.
        public static let notifySendExample = ["/bin/sh", "-c", #"exec notify-send -- "$LEDGERLY_ALERT_SUBJECT" "$LEDGERLY_ALERT_MESSAGE""#]

        public static let defaultTimeoutSeconds: Double = 10
        public static let timeoutRange: ClosedRange<Double> = 0.1...3_600

        /// Names the hook in logs; letters, digits, `.`, `_` and `-`.
        public var name: String
        /// The program and its arguments. An absolute path, or a bare name looked up in `PATH`.
        public var command: [String]
        /// After this long the hook is terminated (SIGTERM, then SIGKILL). Default 10.
        public var timeoutSeconds: Double?
        /// What it runs for: `alerts` (the default) and/or `transactions` (every change to
        /// transactions, as the store published it).
        public var events: [SinkEvent]?

        public init(name: String, command: [String], timeoutSeconds: Double? = nil, events: [SinkEvent]? = nil) {
            self.name = name
            self.command = command
            self.timeoutSeconds = timeoutSeconds
            self.events = events
        }

        public var effectiveEvents: Set<SinkEvent> { Set(events ?? [.alerts]) }

        public var effectiveTimeoutSeconds: Double { timeoutSeconds ?? Self.defaultTimeoutSeconds }
    }

    /// An HTTP endpoint that receives every alert as a signed POST (see `WebhookSink`).
    public struct Webhook: Codable, Hashable, Sendable, CustomStringConvertible {
        public static let defaultRetryInitialSeconds: Double = 5
        public static let defaultRetryMaximumSeconds: Double = 600
        public static let defaultMaximumAttempts = 20
        public static let defaultTimeoutSeconds: Double = 10
        public static let retryRange: ClosedRange<Double> = 0.1...604_800
        public static let attemptsRange: ClosedRange<Int> = 1...1_000
        public static let timeoutRange: ClosedRange<Double> = 0.1...300

        /// Names the webhook in logs and in the outbox; letters, digits, `.`, `_` and `-`.
        public var name: String
        /// An `http://` or `https://` URL.
        public var url: String
        /// The HMAC key (its UTF-8 bytes). Never logged.
        public var secret: String
        /// How `Signature`'s `v1` is made. Default `hmac-sha256`.
        public var signature: WebhookSignature?
        /// The wait after the first failed attempt; it doubles after each further failure. Default 5.
        public var retryInitialSeconds: Double?
        /// The longest wait between two attempts. Default 600 (or `retryInitialSeconds` if greater).
        public var retryMaximumSeconds: Double?
        /// Attempts in all, the first included, before the alert is moved to `failed/`. Default 20.
        public var maximumAttempts: Int?
        /// The whole request, connection included. Default 10.
        public var timeoutSeconds: Double?
        /// What it receives: `alerts` (the default) and/or `transactions`.
        public var events: [SinkEvent]?

        public init(name: String, url: String, secret: String, signature: WebhookSignature? = nil, retryInitialSeconds: Double? = nil,
                    retryMaximumSeconds: Double? = nil, maximumAttempts: Int? = nil, timeoutSeconds: Double? = nil, events: [SinkEvent]? = nil) {
            self.events = events
            self.name = name
            self.url = url
            self.secret = secret
            self.signature = signature
            self.retryInitialSeconds = retryInitialSeconds
            self.retryMaximumSeconds = retryMaximumSeconds
            self.maximumAttempts = maximumAttempts
            self.timeoutSeconds = timeoutSeconds
        }

        public var effectiveSignature: WebhookSignature { signature ?? .hmacSHA256 }
        public var effectiveEvents: Set<SinkEvent> { Set(events ?? [.alerts]) }
        public var effectiveRetryInitialSeconds: Double { retryInitialSeconds ?? Self.defaultRetryInitialSeconds }
        public var effectiveRetryMaximumSeconds: Double { retryMaximumSeconds ?? max(Self.defaultRetryMaximumSeconds, effectiveRetryInitialSeconds) }
        public var effectiveMaximumAttempts: Int { maximumAttempts ?? Self.defaultMaximumAttempts }
        public var effectiveTimeoutSeconds: Double { timeoutSeconds ?? Self.defaultTimeoutSeconds }

        /// The wait before the next attempt once `failures` attempts failed (1 → the initial wait).
        public func backoffSeconds(afterFailures failures: Int) -> Double {
            let doublings = min(max(failures - 1, 0), 62)
            return min(effectiveRetryInitialSeconds * Double(1 << doublings), effectiveRetryMaximumSeconds)
        }

        /// Without the secret, so a webhook can be logged or printed safely.
        public var description: String { "webhook \"\(name)\" (\(URL(string: url)?.host ?? "?"))" }
    }

    public var commandHooks: [CommandHook]
    public var webhooks: [Webhook]
    /// Refuse `http://` webhook URLs: a secret-signed alert, with amounts in it, never crosses a
    /// network in clear. Default false (a receiver on this machine or the LAN may be plain HTTP).
    public var httpsOnly: Bool

    public init(commandHooks: [CommandHook] = [], webhooks: [Webhook] = [], httpsOnly: Bool = false) {
        self.commandHooks = commandHooks
        self.webhooks = webhooks
        self.httpsOnly = httpsOnly
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case commandHooks, webhooks, httpsOnly
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        commandHooks = try container.decodeIfPresent([CommandHook].self, forKey: .commandHooks) ?? []
        webhooks = try container.decodeIfPresent([Webhook].self, forKey: .webhooks) ?? []
        httpsOnly = try container.decodeIfPresent(Bool.self, forKey: .httpsOnly) ?? false
    }

    // MARK: Loading

    /// `alerts.json` in the home's config directory (`$XDG_CONFIG_HOME/ledgerly` for the default home).
    public static func url(home: LedgerlyHome) -> URL { home.configDirectory.appendingPathComponent(fileName) }

    /// Reads and validates `<config>/alerts.json`; no file means no sinks but the log. A file that
    /// exists but cannot be read, parsed or validated is an error, never a silent fallback.
    /// With a logger, warns when the file (which holds webhook secrets) is readable by others.
    public static func load(home: LedgerlyHome, logger: Logger? = nil) throws(AlertSinksConfigurationError) -> AlertSinksConfiguration {
        try load(from: url(home: home), logger: logger) ?? AlertSinksConfiguration()
    }

    /// Reads and validates one file; nil when it does not exist.
    public static func load(from url: URL, logger: Logger? = nil) throws(AlertSinksConfigurationError) -> AlertSinksConfiguration? {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            if (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFDIR) { throw .unreadable(path: path, reason: "it is a directory") }
            if status.st_size > 1 << 20 { throw .unreadable(path: path, reason: "it is larger than 1 MiB") }
            if (status.st_mode & 0o077) != 0 {
                logger?.warning("the alert sinks configuration is readable by other users; it may hold webhook secrets (chmod 600 it)", metadata: ["path": "\(path)"])
            }
        }
        let data: Data
        do { data = try handle.readToEnd() ?? Data() } catch {
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
        return try parse(data, source: path)
    }

    /// Parses and validates a configuration document; `source` names it in errors.
    public static func parse(_ data: Data, source: String) throws(AlertSinksConfigurationError) -> AlertSinksConfiguration {
        let object: JSONValue
        do { object = try ConfigurationJSON.decoder().decode(JSONValue.self, from: data) } catch {
            let detail = (error as? DecodingError).map(describe) ?? describeJSONError(error)
            throw .malformed(path: source, reason: "it is not valid JSON5 (\(detail))")
        }
        guard case .object(let top) = object else {
            throw .malformed(path: source, reason: "it must be a JSON object with \"commandHooks\" and/or \"webhooks\"")
        }
        var problems = unknownKeys(in: top, allowed: CodingKeys.allCases.map(\.stringValue), at: "")
        for (list, allowed) in [("commandHooks", CommandHook.knownKeys), ("webhooks", Webhook.knownKeys)] {
            guard case .array(let entries)? = top[list] else { continue }
            for (index, entry) in entries.enumerated() {
                guard case .object(let fields) = entry else { continue }
                problems += unknownKeys(in: fields, allowed: allowed, at: "\(list)[\(index)]")
            }
        }
        if !problems.isEmpty { throw .invalid(path: source, problems: problems) }

        let configuration: AlertSinksConfiguration
        do { configuration = try ConfigurationJSON.decoder().decode(AlertSinksConfiguration.self, from: data) } catch let error as DecodingError {
            throw .malformed(path: source, reason: describe(error))
        } catch {
            throw .malformed(path: source, reason: "\(error)")
        }
        try configuration.validate(source: source)
        return configuration
    }

    // MARK: Validation

    /// Checks names, commands, URLs, secrets and ranges; reports every problem at once.
    public func validate(source: String = "the alert sinks configuration") throws(AlertSinksConfigurationError) {
        var problems: [String] = []
        var seen: Set<String> = []
        func checkName(_ name: String, _ label: String) {
            if name.isEmpty {
                problems.append("\(label): \"name\" must not be empty")
            } else if name.count > 64 || name.hasPrefix(".") || !name.unicodeScalars.allSatisfy(Self.nameCharacters.contains) {
                problems.append("\(label): \"name\" may only hold letters, digits, \".\", \"_\" and \"-\" (64 at most, not starting with \".\")")
            } else if !seen.insert(name).inserted {
                problems.append("\(label): the name \"\(name)\" is used by another sink; names must be unique")
            }
        }
        func checkRange<T: Comparable>(_ value: T?, _ range: ClosedRange<T>, _ field: String, _ label: String) {
            if let value, !range.contains(value) {
                problems.append("\(label): \"\(field)\" must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
            }
        }

        for (index, hook) in commandHooks.enumerated() {
            let label = "commandHooks[\(index)]" + (hook.name.isEmpty ? "" : " \"\(hook.name)\"")
            checkName(hook.name, label)
            if let program = hook.command.first, !program.isEmpty {
                if program.contains("=") || program.hasPrefix("-") {
                    problems.append("\(label): the program \"\(program)\" must not start with \"-\" or contain \"=\"")
                } else if program.hasPrefix("/") {
                    if !FileManager.default.isExecutableFile(atPath: program) {
                        problems.append("\(label): the program \(program) does not exist or is not executable")
                    }
                } else if program.contains("/") {
                    problems.append("\(label): the program \"\(program)\" must be an absolute path or a bare name looked up in PATH, not a relative path")
                }
            } else {
                problems.append("\(label): \"command\" must hold the program and its arguments, e.g. [\"/usr/bin/logger\", \"-t\", \"ledgerly\"]")
            }
            checkRange(hook.timeoutSeconds, CommandHook.timeoutRange, "timeoutSeconds", label)
            if hook.events?.isEmpty == true { problems.append("\(label): \"events\" must name alerts and/or transactions (leave it out for alerts)") }
        }

        for (index, webhook) in webhooks.enumerated() {
            let label = "webhooks[\(index)]" + (webhook.name.isEmpty ? "" : " \"\(webhook.name)\"")
            checkName(webhook.name, label)
            if let url = URL(string: webhook.url), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty {
                if httpsOnly && scheme == "http" {
                    problems.append("\(label): \"url\" must be an https:// URL (\"httpsOnly\" is on), got \"\(webhook.url)\"")
                }
            } else {
                problems.append("\(label): \"url\" must be an http:// or https:// URL with a host, got \"\(webhook.url)\"")
            }
            if webhook.secret.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                problems.append("\(label): \"secret\" must not be empty; receivers check the signature made with it")
            }
            checkRange(webhook.retryInitialSeconds, Webhook.retryRange, "retryInitialSeconds", label)
            checkRange(webhook.retryMaximumSeconds, Webhook.retryRange, "retryMaximumSeconds", label)
            if let maximum = webhook.retryMaximumSeconds, maximum < webhook.effectiveRetryInitialSeconds {
                problems.append("\(label): \"retryMaximumSeconds\" (\(maximum)) must not be less than \"retryInitialSeconds\" (\(webhook.effectiveRetryInitialSeconds))")
            }
            checkRange(webhook.maximumAttempts, Webhook.attemptsRange, "maximumAttempts", label)
            checkRange(webhook.timeoutSeconds, Webhook.timeoutRange, "timeoutSeconds", label)
            if webhook.events?.isEmpty == true { problems.append("\(label): \"events\" must name alerts and/or transactions (leave it out for alerts)") }
        }
        if !problems.isEmpty { throw .invalid(path: source, problems: problems) }
    }

    private static let nameCharacters: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "._-")
        return set
    }()

    private static func unknownKeys(in object: [String: JSONValue], allowed: [String], at location: String) -> [String] {
        object.keys.sorted().filter { !allowed.contains($0) }.map { key in
            "\(location.isEmpty ? "" : location + ": ")unknown key \"\(key)\" (known: \(allowed.joined(separator: ", ")))"
        }
    }

    private static func describeJSONError(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)): \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(typeName(type))"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        switch name {
        case "String": return "a string"
        case "Int": return "a whole number"
        case "Double": return "a number"
        default:
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a value of type \(name)"
        }
    }
}

extension AlertSinksConfiguration.CommandHook {
    static let knownKeys = ["name", "command", "timeoutSeconds", "events"]
}

extension AlertSinksConfiguration.Webhook {
    static let knownKeys = ["name", "url", "secret", "signature", "retryInitialSeconds", "retryMaximumSeconds", "maximumAttempts", "timeoutSeconds", "events"]
}

/// Why the alert sinks configuration was refused; the description is meant for a terminal.
public enum AlertSinksConfigurationError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not JSON, or not shaped like the configuration.
    case malformed(path: String, reason: String)
    /// The file parsed, but some values are wrong; every problem is listed.
    case invalid(path: String, problems: [String])

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the alert sinks configuration \(path): \(reason)"
        case .malformed(let path, let reason):
            "\(path) is not a valid alert sinks configuration: \(reason)"
        case .invalid(let path, let problems) where problems.count == 1:
            "\(path): \(problems[0])"
        case .invalid(let path, let problems):
            "\(path) has \(problems.count) problems:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }
}

/// How a webhook's `Signature` header is made: HMAC over "<t>.<body>" with the webhook's secret,
/// hex in `v1`, with one hash or the other. The layout is Stripe's and Firefly III's; Firefly III
/// signs with SHA3-256, so a receiver written for it checks Ledgerly's alerts as they are.
public enum WebhookSignature: String, Codable, CaseIterable, Hashable, Sendable {
    case hmacSHA256 = "hmac-sha256"
    case hmacSHA3_256 = "hmac-sha3-256"
}

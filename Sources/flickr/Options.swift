import ArgumentParser
import PhotoCore
import Foundation
import Services

/// Which service to talk to, shared by every mode. What each service needs
/// (credentials, endpoint variable, page sizes) comes from the registry.
/// A service with neither credentials nor a URL is served by the embedded
/// sandbox. Credentials are held in memory only.
struct ProviderOptions: ParsableArguments {
    static let registry = ProviderRegistry.standard

    @Option(help: ArgumentHelp("Service to search: \(registry.idList).", valueName: "name"))
    var provider: String = registry.ids[0]

    @Option(name: .customLong("api-key"), help: ArgumentHelp(
        "\(ProviderRegistry.list(registry.descriptors.filter(\.takesAPIKey).map(\.service.name), conjunction: "or")) API key (default: \(registry.descriptors.filter(\.takesAPIKey).map { "$" + ($0.credentialVariables.first ?? "") }.joined(separator: ", "))). Without a key or URL the embedded sandbox is used.",
        valueName: "key"))
    var apiKey: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp(
        "API address of the chosen service (default: \(registry.descriptors.map { "$" + $0.endpointVariable }.joined(separator: ", ")), else the service's own).",
        valueName: "url"))
    var apiURL: String?

    @Option(name: .customLong("per-page"), parsing: .unconditional, help: ArgumentHelp(
        "Results per page (default: \(registry.descriptors.map { "\($0.defaultPerPage) on \($0.service.name)" }.joined(separator: ", "))).",
        valueName: "n"))
    var perPage: Int?

    var choice: ServiceChoice { ServiceChoice(provider: provider, apiKey: apiKey, apiURL: apiURL, perPage: perPage) }

    func validate() throws {
        _ = try validated { () throws(ServiceSetupError) in try choice.descriptor(in: Self.registry) }
    }

    /// The one lifecycle of every command: connects (with `alsoOthers`,
    /// to the other services too, for `/provider`), runs `body`, closes.
    func withConnection<Value>(
        alsoOthers: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment,
        _ body: (ServiceConnection) async throws -> Value
    ) async throws -> Value {
        try await worded {
            try await ServiceConnector.withConnection(
                choice, registry: Self.registry, alsoOthers: alsoOthers, environment: environment, body)
        }
    }

    /// The same for the scripting modes: says on stderr when the results are
    /// synthetic and passes the service's notices there (after `noticePrefix`),
    /// so stdout stays the results alone.
    func withScriptConnection<Value>(
        noticePrefix: String = "", environment: [String: String] = ProcessInfo.processInfo.environment,
        _ body: (ServiceConnection) async throws -> Value
    ) async throws -> Value {
        try await withConnection(environment: environment) { connection in
            connection.announceSandbox()
            let notices = connection.notices.listen { FileHandle.standardError.write(Data("\(noticePrefix)flickr: \($0)\n".utf8)) }
            defer { notices.cancel() }
            return try await body(connection)
        }
    }
}

extension ServiceConnection {
    /// For the scripting modes: one line on stderr when the results are
    /// synthetic, so stdout stays the results alone.
    func announceSandbox() {
        guard let line = sandboxAnnouncement else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Out-of-range numbers say what the range is.
enum NumericRange {
    static func check(_ name: String, _ value: Int, in range: ClosedRange<Int>) throws {
        try require(range.contains(value), "\(name) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
    }

    static func check(_ name: String, _ value: Int, atLeast minimum: Int) throws {
        try require(value >= minimum, "\(name) must be \(minimum) or more (got \(value)).")
    }
}

/// A usage error saying `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    try require(condition, ValidationError(message()))
}

/// `failure` unless `condition` holds.
func require(_ condition: Bool, _ failure: @autoclosure () -> any Error) throws {
    guard condition else { throw failure() }
}

/// Words or names the modules refuse, as a usage error (the message, then
/// the command's usage).
func validated<T, Failure: Error & CustomStringConvertible>(_ check: () throws(Failure) -> T) throws -> T {
    do {
        return try check()
    } catch {
        throw ValidationError(error.description)
    }
}

/// `body`, with any failure as a sentence: printed as `error: …`, exit
/// status 1 (so `body` ends with its work, never with an `ExitCode`).
func worded<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw CommandFailure(error)
    }
}

/// An error already worded for a person: printed as `error: …`, exit status 1.
struct CommandFailure: WordedError {
    let message: String
    var description: String { message }

    init(message: String) {
        self.message = message
    }

    /// The sentence `error` carries, or one made for it.
    init(_ error: any Error) {
        message = userMessage(for: error)
    }
}

import Foundation
import PhotoCore

extension ServiceConnector {
    /// Connects, runs `body` with the connection, and closes it whether
    /// `body` returns or throws: the one lifecycle of every one-shot command.
    public static func withConnection<Value>(
        _ choice: ServiceChoice, registry: ProviderRegistry, alsoOthers: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        _ body: (ServiceConnection) async throws -> Value
    ) async throws -> Value {
        let connection = try await connect(choice, registry: registry, alsoOthers: alsoOthers, environment: environment)
        let outcome: Result<Value, any Error>
        do {
            outcome = .success(try await body(connection))
        } catch {
            outcome = .failure(error)
        }
        await connection.close()
        return try outcome.get()
    }
}

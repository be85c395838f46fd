import Foundation

import NIOConcurrencyHelpers

/// Access tokens the sandbox issued, kept in memory until they expire.
final class OpenverseTokens: Sendable {
    /// Openverse's tokens last ten hours.
    static let lifetime = 36_000

    private let issued = NIOLockedValueBox<[String: ContinuousClock.Instant]>([:])
    private let lifetime: Duration

    init(lifetime: Duration = .seconds(OpenverseTokens.lifetime)) { self.lifetime = lifetime }

    /// A new random token (30 letters and digits, as django-oauth-toolkit makes them).
    func issue() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        let token = String((0..<30).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        let now = ContinuousClock.now
        issued.withLockedValue { tokens in
            tokens = tokens.filter { $0.value > now }
            tokens[token] = now.advanced(by: lifetime)
        }
        return token
    }

    func isValid(_ token: String) -> Bool {
        guard let expiry = issued.withLockedValue({ $0[token] }) else { return false }
        return expiry > ContinuousClock.now
    }
}

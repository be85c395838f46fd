/// An error only signing in again mends (an expired or revoked token):
/// asking again would meet it again, so the prompt offers `/login`, not `/retry`.
public protocol SignInFailure: Error {
    var needsSignIn: Bool { get }
}

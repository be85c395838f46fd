import PhotoCore
import Foundation
import Networking
import Logging

// MARK: - Sending, with or without a token

extension OpenverseProvider {
    /// GETs `url` (with a token when there are credentials) and returns the
    /// body of a 2xx answer. A 401 that says the token expired gets one
    /// more try with a fresh token.
    func send(_ url: URL, page: Int?) async throws(OpenverseError) -> Data {
        guard let credentials else { return try await get(url, token: nil, page: page) }
        let token = try await currentToken(credentials)
        do throws(OpenverseError) {
            return try await get(url, token: token, page: page)
        } catch let error where error.isExpiredToken {
            logger.debug("Openverse refused the token; fetching a new one", metadata: ["host": "\(url.host ?? "?")"])
            await tokens.discard(token)
            let fresh = try await currentToken(credentials)
            return try await get(url, token: fresh, page: page)
        }
    }

    private func currentToken(_ credentials: OpenverseCredentials) async throws(OpenverseError) -> String {
        let provider = self
        return try await tokens.token { () async throws(OpenverseError) -> (value: String, expiresIn: Int) in
            try await provider.fetchToken(credentials)
        }
    }

    /// `POST {base}/v1/auth_tokens/token/` with the client credentials,
    /// retried like a search when the failure is transient.
    func fetchToken(_ credentials: OpenverseCredentials) async throws(OpenverseError) -> (value: String, expiresIn: Int) {
        let secrets = credentials.secrets
        let url = try OpenverseSearchRequest.endpoint(Self.tokenPath, base: baseURL)
        let data = try await withRetries(host: url.host) { () async throws(OpenverseError) -> Data in
            let response: NetworkManager.Response
            do throws(NetworkError) {
                response = try await network.post(
                    url, form: credentials.tokenForm, headers: [("Accept", "application/json")],
                    maxBytes: 1 << 20, errorBodies: true)
            } catch {
                throw OpenverseError.from(error, authenticated: false, redacting: secrets).redacting(secrets)
            }
            guard (200..<300).contains(response.status) else {
                let error = OpenverseError.http(
                    status: response.status, contentType: response.contentType, retryAfter: response.retryAfter,
                    body: response.body, redacting: secrets)
                switch error {
                case .unauthorized(_, let message), .http(.forbidden(let message)), .http(.rejected(400, let message)),
                     .pastLastPage(_, let message):
                    throw OpenverseError.tokenRefused(status: response.status, serverMessage: message).redacting(secrets)
                default:
                    throw error.redacting(secrets)
                }
            }
            return response.body
        }
        do throws(OpenverseError) {
            return try OpenverseToken.decode(data, redacting: secrets)
        } catch {
            throw error.redacting(secrets)
        }
    }

    /// One GET, retried when the failure is transient; a non-2xx answer
    /// becomes the error its status and body describe.
    private func get(_ url: URL, token: String?, page: Int?) async throws(OpenverseError) -> Data {
        let secrets = (credentials?.secrets ?? []) + (token.map { [$0] } ?? [])
        var headers = [("Accept", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let sent = headers
        return try await withRetries(host: url.host) { () async throws(OpenverseError) -> Data in
            let response: NetworkManager.Response
            do throws(NetworkError) {
                response = try await network.get(url, headers: sent, maxBytes: Self.maxResponseBytes, errorBodies: true)
            } catch {
                throw OpenverseError.from(error, authenticated: token != nil, redacting: secrets).redacting(secrets)
            }
            guard (200..<300).contains(response.status) else {
                throw OpenverseError.http(
                    status: response.status, contentType: response.contentType, retryAfter: response.retryAfter,
                    body: response.body, authenticated: token != nil, page: page, redacting: secrets
                ).redacting(secrets)
            }
            return response.body
        }
    }

    /// Runs `attempt` under the retry policy: transient failures (transport,
    /// 5xx, 429 after its wait) are tried again; others end it at once.
    private func withRetries(
        host: String?, _ attempt: () async throws(OpenverseError) -> Data
    ) async throws(OpenverseError) -> Data {
        try await retryPolicy.run(
            classify: { error in
                if let wait = error.retryAfter { return .retryAfter(wait) }
                return error.isTransient ? .retry : .stop
            },
            cancelled: { .network(.cancelled) },
            onRetry: { error, wait, retry in
                // A rate limit's wait is long enough to be felt: say so.
                if case .http(.rateLimited) = error, wait >= .seconds(1) {
                    notices?.post(
                        "Openverse asked to wait \(wait.components.seconds) s (rate limit); trying again then.")
                }
                logger.debug("Retrying an Openverse call", metadata: [
                    "host": "\(host ?? "?")", "retry": "\(retry)", "wait": "\(wait)", "error": "\(error.description)",
                ])
            }
        ) { _ throws(OpenverseError) in
            try await attempt()
        }
    }
}

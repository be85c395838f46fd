import NIOSSL

/// TLS's failures in a sentence a person can act on, for one met outside
/// `NetworkManager` (which names the host itself, as `.tlsFailure`). Here,
/// beside the only module that speaks TLS, so nothing above Networking
/// needs NIOSSL's types.
public enum TLSWording {
    /// The sentence for `error` when it is TLS's, else `nil`.
    public static func sentence(for error: any Error) -> String? {
        if let error = error as? NIOSSLError {
            if case .uncleanShutdown = error { return "The secure connection ended unexpectedly. Try again." }
            return "A secure connection failed: \(reason(error)). Check the address and the system's certificates."
        }
        if let error = error as? NIOSSLExtraError {
            return "A secure connection failed: \(reason(error)). Check the address and the system's certificates."
        }
        return nil
    }

    private static func reason(_ error: NIOSSLExtraError) -> String {
        if error == .failedToValidateHostname || error == .serverHostnameImpossibleToMatch {
            return "the certificate is for another host name"
        }
        return "the server's certificate or TLS settings were not accepted"
    }

    private static func reason(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let cause):
            let detail = String(describing: cause).lowercased()
            if detail.contains("certificate_verify_failed") || detail.contains("certificate verify failed") {
                return "the certificate is not trusted (expired, self-signed or for another name)"
            }
            if detail.contains("wrong_version_number") || detail.contains("http_request") {
                return "the server does not speak TLS on that port (is it an http:// address?)"
            }
            return "the TLS handshake failed"
        case .noCertificateToValidate, .unableToValidateCertificate:
            return "the certificate could not be checked"
        default:
            return "the TLS layer reported an error"
        }
    }
}

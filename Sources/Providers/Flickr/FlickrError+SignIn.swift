import PhotoCore

/// Error 98 (and 99) are mended by signing in, never by asking again.
extension FlickrError: SignInFailure {
    public var needsSignIn: Bool {
        if case .api(let code, _) = self { return code == 98 || code == 99 }
        return false
    }
}

extension FlickrAccountError: SignInFailure {
    public var needsSignIn: Bool {
        switch self {
        case .notSignedIn, .tokenRejected, .signedInElsewhere: true
        case .flickr(let error): error.needsSignIn
        default: false
        }
    }
}

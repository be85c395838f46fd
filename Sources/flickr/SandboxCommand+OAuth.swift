import Sandbox

extension SandboxCommand {
    /// What `flickr sandbox --help` says of Flickr's sign-in.
    static let oauthHelp = """
        Flickr's sign-in (OAuth 1.0a, HMAC-SHA1) at /services/oauth/request_token, /authorize (approves at \
        once for the catalog's well-known owner and shows the verifier in <span id="verifier">) and \
        /access_token; every signed call is checked (signature, a nonce used once, a timestamp within \
        5 minutes: Flickr's errors 96, 97, 98) and flickr.test.login answers as the signed-in person. \
        Without --api-key and --api-secret it accepts the consumer key \(FlickrOAuthServer.defaultConsumerKey) \
        (any non-empty key, in fact) with the secret \(FlickrOAuthServer.defaultConsumerSecret).
        """
}

import FlickrService
import Foundation
import PhotoCore
import Sandbox

/// Every Flickr provider the app makes signs its calls with the sign-in
/// stored in the config folder, when there is one for its server and key:
/// the CLI, the prompt and `/provider flickr` alike.
enum FlickrStoredSignIn {
    /// `provider` with its calls signed as the stored sign-in's person (a
    /// Flickr provider learns it; others are returned as they are).
    ///
    /// - Parameter apiKey: `--api-key` when it was given for this service.
    static func attach(to provider: any PhotoProvider, apiKey: String?, environment: [String: String]) -> any PhotoProvider {
        guard let flickr = provider as? FlickrProvider else { return provider }
        let key = (try? FlickrProvider.apiKey(option: apiKey, environment: environment)) ?? nil
        let given = environment["FLICKR_API_SECRET"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        // The sandbox (embedded, or named by --api-url without a key) signs with its documented pair.
        let secret = given.flatMap { $0.isEmpty ? nil : $0 } ?? (key == nil ? FlickrOAuthServer.defaultConsumerSecret : nil)
        flickr.useSignIn(store: FlickrAccountStore(environment: environment), consumerSecret: secret)
        return flickr
    }
}

import FlickrKit
import ImagePipeline

/// The services a `FlickrViewModel` can search, and `/provider`'s choices.
extension FlickrViewModel {
    /// One service the app can search, with its page size and saved session.
    public struct ServiceSetup {
        public let provider: any PhotoProvider
        public let perPage: Int
        public let sessionStore: SessionStore?

        public init(provider: any PhotoProvider, perPage: Int, sessionStore: SessionStore? = nil) {
            self.provider = provider
            self.perPage = perPage
            self.sessionStore = sessionStore
        }
    }

    /// What `/provider` can switch to, the current one included.
    public var providerChoices: [String] { services.map(\.provider.service.rawValue) }

    /// One service only (scripts and tests).
    public convenience init(
        provider: any PhotoProvider,
        pipeline: ImageDownloadManager,
        perPage: Int = 30,
        sessionStore: SessionStore? = nil
    ) {
        self.init(
            services: [ServiceSetup(provider: provider, perPage: perPage, sessionStore: sessionStore)],
            pipeline: pipeline)
    }
}

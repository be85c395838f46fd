import Binding
import Foundation
import PhotoCore
import ImagePipeline

/// The services a `FlickrViewModel` can search, and `/provider`'s choices.
extension FlickrViewModel {
    /// One service the app can search, with its page size and saved session.
    public struct ServiceSetup {
        public let provider: any PhotoProvider
        public let perPage: Int
        public let sessionStore: SessionStore?
        /// Where this run's embedded sandbox serves, when it stands in for
        /// the service (a restored session's images move there).
        public let sandboxOrigin: URL?
        /// When a pause in typing searches this service.
        public let liveSearch: LiveSearchPolicy

        public init(
            provider: any PhotoProvider, perPage: Int, sessionStore: SessionStore? = nil, sandboxOrigin: URL? = nil,
            liveSearch: LiveSearchPolicy = .standard
        ) {
            self.liveSearch = liveSearch
            self.provider = provider
            self.perPage = perPage
            self.sessionStore = sessionStore
            self.sandboxOrigin = sandboxOrigin
        }
    }

    /// What `/provider` can switch to, the current one included.
    public var providerChoices: [String] { services.map(\.provider.service.id) }

    /// Searches another service (`/provider shutterstock`): stops what is
    /// pending, then asks the new one for the current query, if there is one.
    public func switchProvider(to name: String) {
        let wanted = name.lowercased()
        guard let setup = services.first(where: { $0.provider.service.id == wanted }) else {
            let choices = ProviderRegistry.list(providerChoices.map { "/provider \($0)" }, conjunction: "or")
            noticeSource.value = .error("Unknown provider “\(name)” (or not available in this run; the start-up message says why): use \(choices).")
            return
        }
        guard setup.provider.service != provider.service else {
            noticeSource.value = .info("Already searching \(provider.displayName).")
            return
        }
        saveSession()
        session?.flush()
        stopPending(includingDetail: true)
        provider = setup.provider
        perPage = setup.perPage
        let need = factory.thumbnailNeed
        factory = ImageModelFactory(provider: setup.provider, pipeline: pipeline)
        factory.thumbnailNeed = need
        session = makeSession(setup)
        noticeSource.value = .info("Now searching \(provider.displayName).")
        if let sentence = query.value.flatMap(unsupportedSentence(for:)) {
            // A person's photos, an album or favourites have no counterpart there.
            noticeSource.value = .info(sentence + " Type words to search.")
            activitySource.value = .idle
        } else if let query = query.value {
            start(query)
        } else {
            activitySource.value = .idle
        }
    }

    /// The service's sentence when it cannot show `query` at all.
    private func unsupportedSentence(for query: ResultQuery) -> String? {
        switch query {
        case .collection: provider.capabilities.collections.unsupportedSentence
        case .favourites: provider.capabilities.favourites.unsupportedSentence
        case .search, .recent: nil
        }
    }

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

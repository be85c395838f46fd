import Foundation
import Networking

/// Everything the app needs to know about a provider before it has one:
/// told once, by the provider's own module, and read by the flags, `--help`,
/// `/provider`, banners, per-page checks and messages.
public struct ProviderDescriptor: Sendable {
    public let service: PhotoService
    /// One line for `--help`: what it searches and what it needs.
    public let summary: String
    /// Variables that hold credentials (kept out of the history), each
    /// with the sentence `--help` and the man page give it.
    public let credentials: [EnvironmentVariable]
    /// How to search the real service, for banners: "Set FLICKR_API_KEY …".
    public let credentialHint: String
    /// The variable `--api-url`'s default comes from, with its sentence.
    public let endpoint: EnvironmentVariable
    public let defaultBaseURL: URL
    /// Results per page when `--per-page` is not given, and the widest range
    /// the service accepts (a provider may accept less from some callers).
    public let defaultPerPage: Int
    public let perPageRange: ClosedRange<Int>
    /// How deep a query pages: the most results served, or `nil` for no cap.
    public let maxResults: Int?
    /// How long typing must pause before a live search, and what it skips
    /// (tight anonymous limits ask for longer pauses and whole words).
    public let liveSearch: LiveSearchPolicy
    /// The filters it honours; any other is refused in a sentence.
    public let supportedFilters: Set<FilterKind>
    /// Whether `--api-key` is this service's credential.
    public let takesAPIKey: Bool
    /// Whether the real service answers with no credentials at all.
    public let needsNoCredentials: Bool
    /// What `thumbnail_url` and `image_url` are on this service, for `--help`.
    public let imageSizes: String
    /// What its photo ids look like (`flickr info` refuses others).
    public let photoID: PhotoIDShape
    /// Connects: the real service, or the sandbox's stand-in when there are
    /// no credentials (and no URL). Throws a `ProviderError` for credentials
    /// that are set but unusable.
    public let connect: @Sendable (ProviderSetup) throws -> ProviderEndpoint

    public init(
        service: PhotoService, summary: String, credentials: [EnvironmentVariable], credentialHint: String,
        endpoint: EnvironmentVariable, defaultBaseURL: URL, defaultPerPage: Int, perPageRange: ClosedRange<Int>,
        maxResults: Int?, liveSearch: LiveSearchPolicy, supportedFilters: Set<FilterKind>, takesAPIKey: Bool = false, needsNoCredentials: Bool = false,
        imageSizes: String, photoID: PhotoIDShape = .lettersAndDigits,
        connect: @escaping @Sendable (ProviderSetup) throws -> ProviderEndpoint
    ) {
        self.service = service
        self.summary = summary
        self.credentials = credentials
        self.credentialHint = credentialHint
        self.endpoint = endpoint
        self.defaultBaseURL = defaultBaseURL
        self.defaultPerPage = defaultPerPage
        self.perPageRange = perPageRange
        self.maxResults = maxResults
        self.liveSearch = liveSearch
        self.supportedFilters = supportedFilters
        self.takesAPIKey = takesAPIKey
        self.needsNoCredentials = needsNoCredentials
        self.imageSizes = imageSizes
        self.photoID = photoID
        self.connect = connect
    }
}

extension ProviderDescriptor {
    public var credentialVariables: [String] { credentials.map(\.name) }
    public var endpointVariable: String { endpoint.name }
    /// Every variable it reads, credentials first.
    public var variables: [EnvironmentVariable] { credentials + [endpoint] }
}

/// A variable of the environment the app reads, and the sentence that
/// documents it (`--help`, the man page): declared where it is read, so
/// none ships without one.
public struct EnvironmentVariable: Sendable, Hashable {
    public let name: String
    public let sentence: String

    public init(_ name: String, _ sentence: String) {
        self.name = name
        self.sentence = sentence
    }
}

/// What a provider is connected with.
public struct ProviderSetup: Sendable {
    public let environment: [String: String]
    /// `--api-key`, when given and the service takes it.
    public let apiKey: String?
    /// `--api-url` for the chosen service, else the service's endpoint
    /// variable; `nil` when neither is set.
    public let apiURL: URL?
    public let network: NetworkManager
    /// Where the provider says what a person should hear while it works.
    public let notices: ServiceNotices

    public init(
        environment: [String: String], apiKey: String?, apiURL: URL?, network: NetworkManager,
        notices: ServiceNotices = ServiceNotices()
    ) {
        self.environment = environment
        self.apiKey = apiKey
        self.apiURL = apiURL
        self.network = network
        self.notices = notices
    }
}

/// Where a provider's answers come from.
public enum ProviderEndpoint: Sendable {
    /// The service itself, or a server the person named.
    case remote(any PhotoProvider)
    /// The embedded sandbox, made from the sandbox's base URL once it runs.
    case sandbox(@Sendable (_ base: URL) -> any PhotoProvider)
}

/// The providers the app knows, in the order `--help` lists them.
public struct ProviderRegistry: Sendable {
    public let descriptors: [ProviderDescriptor]

    public init(_ descriptors: [ProviderDescriptor]) {
        self.descriptors = descriptors
    }

    public func descriptor(id: String) -> ProviderDescriptor? {
        descriptors.first { $0.service.id == id.lowercased() }
    }

    public var ids: [String] { descriptors.map(\.service.id) }

    /// "flickr, shutterstock or openverse".
    public var idList: String { Self.list(ids, conjunction: "or") }

    /// Every credential variable of every provider.
    public var credentialVariables: [String] { descriptors.flatMap(\.credentialVariables) }

    /// "a, b or c".
    public static func list(_ items: [String], conjunction: String) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}

import Foundation
import Networking

/// Where the app keeps its files, following the XDG base directory spec.
///
/// State (history, last session) under `$XDG_STATE_HOME/flickr`, images
/// and their renderings under `$XDG_CACHE_HOME/flickr`. Nothing written there contains the API key.
public struct AppPaths: Sendable, Equatable {
    public var stateDirectory: URL
    public var cacheDirectory: URL

    public init(stateDirectory: URL, cacheDirectory: URL) {
        self.stateDirectory = stateDirectory
        self.cacheDirectory = cacheDirectory
    }

    /// Paths from the environment; relative XDG values are ignored, as the spec says.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        func base(_ variable: String, default relative: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return home.appendingPathComponent(relative, isDirectory: true)
        }
        self.stateDirectory = base("XDG_STATE_HOME", default: ".local/state").appendingPathComponent("flickr", isDirectory: true)
        self.cacheDirectory = base("XDG_CACHE_HOME", default: ".cache").appendingPathComponent("flickr", isDirectory: true)
    }

    /// Each service keeps its own history and session, so switching never
    /// mixes them. Flickr's keep the names they had when it was the only
    /// service, so files written then still load.
    public func historyFile(for service: PhotoService) -> URL {
        stateDirectory.appendingPathComponent(service.id == Self.firstService ? "history" : "history-\(service.id)")
    }

    public func sessionFile(for service: PhotoService) -> URL {
        stateDirectory.appendingPathComponent(service.id == Self.firstService ? "session.json" : "session-\(service.id).json")
    }

    /// The service whose files predate per-service names.
    private static let firstService = "flickr"
    public var imageCacheDirectory: URL { cacheDirectory.appendingPathComponent("images", isDirectory: true) }
    /// Thumbnails as drawn in the terminal, so a page seen before draws without decoding.
    public var renderCacheDirectory: URL { cacheDirectory.appendingPathComponent("renders", isDirectory: true) }

    /// Creates a directory (and parents) readable by the user only.
    public static func ensureDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
}

import Foundation

/// What a request path asks for.
enum Route {
    case flickrREST
    case flickrOAuth(endpoint: String)
    case flickrUpload
    case shutterstock
    case flickrImage(ImagePath)
    case flickrVideo(VideoPath)
    case shutterstockImage(ShutterstockImagePath)
    case openverse
    case openverseImage(OpenverseImagePath)
    case other

    init(path: String) {
        if path == "/services/rest/" || path == "/services/rest" {
            self = .flickrREST
        } else if path == "/services/upload/" || path == "/services/upload" {
            self = .flickrUpload
        } else if path.hasPrefix("/services/oauth/") {
            self = .flickrOAuth(endpoint: String(path.dropFirst("/services/oauth/".count)))
        } else if path.hasPrefix("/v2/") {
            self = .shutterstock
        } else if let image = OpenverseImagePath(path) {
            self = .openverseImage(image)
        } else if path.hasPrefix("/v1/") {
            self = .openverse
        } else if let video = VideoPath(path) {
            self = .flickrVideo(video)
        } else if let image = ImagePath(path) {
            self = .flickrImage(image)
        } else if let image = ShutterstockImagePath(path) {
            self = .shutterstockImage(image)
        } else {
            self = .other
        }
    }

    var kind: StatsRecorder.Kind {
        switch self {
        case .flickrREST, .flickrOAuth, .flickrUpload, .shutterstock, .openverse: .rest
        case .flickrImage, .flickrVideo, .shutterstockImage, .openverseImage: .image
        case .other: .other
        }
    }
}

/// `/{server}/{id}_{secret}[_{suffix}].jpg`, taken apart.
struct ImagePath: Equatable {
    var server: String
    var id: String
    var secret: String
    var size: SandboxImageSize

    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasSuffix(".jpg") else { return nil }
        let pieces = parts[2].dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
        guard pieces.count == 2 || pieces.count == 3,
              let size = SandboxImageSize(urlSuffix: pieces.count == 3 ? String(pieces[2]) : nil)
        else { return nil }
        server = String(parts[1])
        id = String(pieces[0])
        secret = String(pieces[1])
        self.size = size
    }
}

/// `/image-photo/{slug}-{variant}-{id}.jpg`, Shutterstock's asset URLs.
struct ShutterstockImagePath: Equatable {
    var id: String
    var asset: ShutterstockAsset

    init?(_ path: String) {
        guard path.hasPrefix("/image-photo/"), path.hasSuffix(".jpg") else { return nil }
        let name = path.dropFirst("/image-photo/".count).dropLast(4)
        let pieces = name.split(separator: "-")
        guard pieces.count >= 3, !name.contains("/"), let asset = ShutterstockAsset(variant: String(pieces[pieces.count - 2]))
        else { return nil }
        id = String(pieces[pieces.count - 1])
        self.asset = asset
    }
}

/// `a=1&b=two+words` → pairs, percent-decoded, `+` as space.
enum QueryString {
    static func parse(_ query: String) -> [(String, String)] {
        query.split(separator: "&").compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(pair[0]), !name.isEmpty else { return nil }
            return (name, pair.count > 1 ? decode(pair[1]) ?? "" : "")
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The consumer key of an `Authorization: OAuth oauth_consumer_key="…", …` header.
    static func oauthConsumerKey(_ header: String) -> String? {
        guard header.lowercased().hasPrefix("oauth ") else { return nil }
        for field in header.dropFirst(6).split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "oauth_consumer_key" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.removingPercentEncoding ?? value
        }
        return nil
    }

    /// Whether a parameter carries a credential or a per-request signature
    /// value: such parameters are neither logged nor part of a fault key.
    static func isSecretOrVolatile(_ name: String) -> Bool {
        RestAPI.credentialNames.contains(name) || name.hasPrefix("oauth_")
    }

    /// The query as logged and as the fault key: credentials and OAuth
    /// values (nonces and timestamps change on every call) left out.
    static func redacted(_ query: String) -> String {
        query.split(separator: "&").filter { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map { String($0).removingPercentEncoding ?? String($0) } ?? ""
            return !isSecretOrVolatile(name)
        }.joined(separator: "&")
    }
}

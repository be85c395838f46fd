import Foundation

/// The parameters of `GET /v1/images/`, validated as Openverse's request
/// serializer does, and the filters they put on the catalog.
struct OpenverseSearchRequest {
    struct Refusal: Error { let answer: OpenverseAPI.Answer }

    static let categories = ["photograph", "illustration", "digitized_artwork"]
    static let aspectRatios = ["square", "tall", "wide"]
    /// Sources Openverse knows; unknown ones are dropped silently, as the real API does.
    static let knownSources: Set = ["flickr", "wikimedia", "nasa", "smithsonian", "met", "stocksnap", "rawpixel",
                                    "europeana", "geographorguk", "nypl", "spacex", "statensmuseum"]

    var text = ""
    var page = 1
    var pageSize = OpenverseAPI.anonymousPageSize
    /// nil: any licence (of those Openverse indexes).
    var licenses: Set<String>?
    var categories: Set<String>?
    var aspectRatios: Set<String>?
    var extensions: Set<String>?
    var sources: Set<String>?
    var excludedSources: Set<String> = []
    var creator: [String] = []
    var title: [String] = []
    var tags: [String] = []

    static func parse(_ parameters: [(String, String)], authenticated: Bool) -> Result<Self, Refusal> {
        func value(_ name: String) -> String? { parameters.last { $0.0 == name }?.1 }
        func list(_ name: String) -> [String]? {
            value(name).map { $0.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        }
        func refuse(_ field: String, _ message: String) -> Result<Self, Refusal> {
            .failure(Refusal(answer: OpenverseAPI.invalid(field, message)))
        }
        var request = Self()
        // `q` and the field searches are cut to 200 characters, as on Openverse.
        request.text = String((value("q") ?? "").prefix(200))

        if let text = value("page_size") {
            guard let size = Int(text.trimmingCharacters(in: .whitespaces)) else { return refuse("page_size", "A valid integer is required.") }
            guard size >= 1 else { return refuse("page_size", "Ensure this value is greater than or equal to 1.") }
            let limit = authenticated ? OpenverseAPI.authenticatedPageSize : OpenverseAPI.anonymousPageSize
            if size > limit {
                let message = "Ensure this value is less than or equal to \(limit)."
                // Openverse answers an anonymous caller's large page with DRF's NotAuthenticated.
                return authenticated ? refuse("page_size", message) : .failure(Refusal(answer: OpenverseAPI.detail(401, message)))
            }
            request.pageSize = size
        }
        if let text = value("page") {
            guard let page = Int(text.trimmingCharacters(in: .whitespaces)) else { return refuse("page", "A valid integer is required.") }
            guard page >= 1 else { return refuse("page", "Ensure this value is greater than or equal to 1.") }
            guard page <= OpenverseAPI.maxPage else {
                return refuse("page", "Ensure this value is less than or equal to \(OpenverseAPI.maxPage).")
            }
            request.page = page
        }
        if let licenses = list("license") {
            for license in licenses where !OpenverseLicense.slugs.contains(license) {
                return refuse("license", "License '\(license)' does not exist.")
            }
            request.licenses = Set(licenses)
        }
        if let types = list("license_type") {
            var allowed = Set(OpenverseLicense.slugs)
            for type in types {
                guard let group = OpenverseLicense.groups[type] else {
                    return refuse("license_type", "License type '\(type)' does not exist.")
                }
                allowed.formIntersection(group)
            }
            request.licenses = request.licenses.map { $0.intersection(allowed) } ?? allowed
        }
        if let categories = list("category") {
            for category in categories where !Self.categories.contains(category) {
                return refuse("category", "Invalid category: \(category). Available options: \(Self.categories.joined(separator: ", "))")
            }
            request.categories = Set(categories)
        }
        if let ratios = list("aspect_ratio") {
            for ratio in ratios where !Self.aspectRatios.contains(ratio) {
                return refuse("aspect_ratio", "Invalid aspect_ratio: \(ratio). Available options: \(Self.aspectRatios.joined(separator: ", "))")
            }
            request.aspectRatios = Set(ratios)
        }
        if let extensions = list("extension") {
            // Openverse lower-cases extensions and checks nothing else.
            request.extensions = Set(extensions.map { $0 == "jpeg" ? "jpg" : $0 })
        }
        if value("source") != nil, value("excluded_source") != nil {
            return refuse("excluded_source", "Cannot set both 'source' and 'excluded_source'. Use exactly one of these.")
        }
        if let sources = list("source") {
            let known = Set(sources).intersection(Self.knownSources)
            request.sources = known.isEmpty ? nil : known
        }
        if let excluded = list("excluded_source") { request.excludedSources = Set(excluded).intersection(Self.knownSources) }
        request.creator = Tokenizer.tokens(of: String((value("creator") ?? "").prefix(200)))
        request.title = Tokenizer.tokens(of: String((value("title") ?? "").prefix(200)))
        request.tags = Tokenizer.tokens(of: String((value("tags") ?? "").prefix(200)))
        return .success(request)
    }

    /// Whether a photo that matched the text passes every filter. Works that
    /// are not openly licensed are never in Openverse.
    func admits(_ photo: CatalogPhoto) -> Bool {
        guard let license = OpenverseLicense(flickrID: photo.license) else { return false }
        if let licenses, !licenses.contains(license.slug) { return false }
        // Every catalog photo is a photograph from Flickr.
        if let categories, !categories.contains("photograph") { return false }
        if let sources, !sources.contains("flickr") { return false }
        if excludedSources.contains("flickr") { return false }
        if let extensions, !extensions.contains(photo.fileFormat.rawValue) { return false }
        if let aspectRatios {
            let shape = photo.originalWidth == photo.originalHeight ? "square"
                : photo.originalHeight > photo.originalWidth ? "tall" : "wide"
            if !aspectRatios.contains(shape) { return false }
        }
        if !creator.isEmpty, !Self.contains(Tokenizer.tokens(of: photo.ownerName), all: creator) { return false }
        if !title.isEmpty, !Self.contains(Tokenizer.tokens(of: photo.title), all: title) { return false }
        if !tags.isEmpty, !Self.contains(photo.tags.flatMap(Tokenizer.tokens(of:)), all: tags) { return false }
        return true
    }

    private static func contains(_ tokens: [String], all wanted: [String]) -> Bool {
        wanted.allSatisfy(tokens.contains)
    }
}

import PhotoCore
import Foundation
import Networking

/// A search's filters in Flickr's parameters.
extension FlickrProvider {
    /// `flickr.photos.search`'s parameters for `query`; `user:` must already
    /// be an NSID (see `resolveUser`).
    static func searchParameters(_ query: SearchQuery, userID: String?) throws(FlickrError) -> [(String, String)] {
        let filters = query.filters
        if let refusal = filters.refusal(by: "Flickr", supporting: descriptor.supportedFilters) {
            throw .invalidRequest(refusal)
        }
        var parameters: [(String, String)] = []
        if !query.text.isEmpty { parameters.append(("text", query.text)) }
        parameters.append(("sort", sort(filters.sort)))
        parameters.append(("safe_search", filters.safe == false ? "3" : "1"))
        switch filters.type {
        case nil, .photo?: parameters.append(("content_type", "1"))
        case .illustration?: parameters.append(("content_type", "3"))
        case .vector?: throw .invalidRequest("Flickr has no vector images; it has type:photo and type:illustration.")
        }
        parameters.append(("media", "photos"))
        if !filters.licenses.isEmpty {
            let kinds = filters.licenses.reduce(into: Set<License.Kind>()) { $0.formUnion($1.kinds) }
            parameters.append(("license", FlickrLicenseTable.builtIn.flickrIDs(of: kinds).map(String.init).joined(separator: ",")))
        }
        if let taken = filters.taken {
            if let from = taken.from { parameters.append(("min_taken_date", from.firstDay + " 00:00:00")) }
            if let to = taken.to { parameters.append(("max_taken_date", to.lastDay + " 23:59:59")) }
        }
        if let uploaded = filters.uploaded {
            if let from = uploaded.from { parameters.append(("min_upload_date", String(Int(from.start.timeIntervalSince1970)))) }
            if let to = uploaded.to { parameters.append(("max_upload_date", String(Int(to.end.timeIntervalSince1970) - 1))) }
        }
        if let userID { parameters.append(("user_id", userID)) }
        if !filters.tags.isEmpty {
            parameters.append(("tags", filters.tags.joined(separator: ",")))
            parameters.append(("tag_mode", filters.allTags ? "all" : "any"))
        }
        if let near = filters.near {
            parameters.append(("lat", PlainDecimal.format(near.latitude)))
            parameters.append(("lon", PlainDecimal.format(near.longitude)))
            if let radius = near.radiusKilometres {
                parameters.append(("radius", PlainDecimal.format(radius)))
                parameters.append(("radius_units", "km"))
            }
        }
        if let bbox = filters.bbox { parameters.append(("bbox", bbox.description)) }
        return parameters
    }

    private static func sort(_ order: SortFilter?) -> String {
        switch order {
        case nil, .relevant?: "relevance"
        case .interesting?: "interestingness-desc"
        case .newest?: "date-posted-desc"
        case .oldest?: "date-posted-asc"
        case .takenNewest?: "date-taken-desc"
        case .takenOldest?: "date-taken-asc"
        }
    }

    /// The NSID of `user:`'s person: an NSID as it is, without a call;
    /// anything else (username, path alias, profile URL) through
    /// `person(named:)`, which remembers it for the session.
    func resolveUser(_ name: String) async throws(FlickrError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if Self.isNSID(trimmed) { return trimmed }
        return try await person(named: trimmed).id
    }

    /// `12345678@N00`.
    static func isNSID(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isNumber }
            && parts[1].count >= 2 && parts[1].first == "N" && parts[1].dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension FlickrResponseDecoder {
    /// `findByUsername` and `urls.lookupUser` both answer `user` with the
    /// NSID as `nsid` or `id`.
    static func decodeUserID(_ data: Data) throws(FlickrError) -> String {
        try FlickrCollectionDecoder.decodeLookedUpUser(data).id
    }
}

import PhotoCore
import Foundation
import Networking
import NIOConcurrencyHelpers

extension FlickrResponseDecoder {
    /// `flickr.photos.licenses.getInfo` → each licence's id, name and URL, in
    /// the order sent. Entries without a numeric id are left out.
    static func decodeLicenses(_ data: Data) throws(FlickrError) -> [(id: Int, name: String, url: URL?)] {
        let root = try readTree(data)
        try checkStatus(root)
        guard let licenses = first(root["licenses"]), licenses.objectMembers != nil else {
            throw .malformedResponse("the answer is not a list of licences: it has no `licenses`.")
        }
        let entries: [WireValue]
        switch licenses["license"] {
        case .array(let values)?: entries = values
        case let single?: entries = [single]
        case nil: entries = []
        }
        return entries.compactMap { entry in
            guard let id = entry["id"]?.lenientInteger, let name = entry["name"]?.lenientString else { return nil }
            let url = entry["url"]?.lenientString.flatMap(URL.init(string:)).flatMap { url in
                ["http", "https"].contains(url.scheme?.lowercased() ?? "") ? url : nil
            }
            return (id, ResponseExcerpt.make(name, limit: 80), url)
        }
    }
}

extension FlickrProvider {
    /// Flickr's licence names now: from a copy on disk younger than a week,
    /// else from `flickr.photos.licenses.getInfo` (then saved), else the
    /// built-in table. Never throws: the built-in table is the fallback.
    public func licenses(cache file: URL?, now: Date = Date()) async -> FlickrLicenseTable {
        if let file, let saved = Self.savedLicenses(file, now: now) { return saved }
        do {
            let url = try requestURL(method: "flickr.photos.licenses.getInfo", parameters: [])
            let names = try await call(url) { data throws(FlickrError) in try FlickrResponseDecoder.decodeLicenses(data) }
            if let file {
                let saved = names.map { SavedLicense(id: $0.id, name: $0.name, url: $0.url) }
                if let data = try? JSONEncoder().encode(saved) {
                    try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try? data.write(to: file, options: .atomic)
                }
            }
            return FlickrLicenseTable.builtIn.merging(names: names)
        } catch {
            return .builtIn
        }
    }

    /// How long a saved copy of the names is used before asking again.
    static let licenseCacheAge: TimeInterval = 7 * 24 * 3600

    private struct SavedLicense: Codable {
        var id: Int
        var name: String
        var url: URL?
    }

    private static func savedLicenses(_ file: URL, now: Date) -> FlickrLicenseTable? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let modified = attributes[.modificationDate] as? Date,
              now.timeIntervalSince(modified) < licenseCacheAge, now >= modified,
              let data = try? Data(contentsOf: file),
              let saved = try? JSONDecoder().decode([SavedLicense].self, from: data), !saved.isEmpty
        else { return nil }
        return FlickrLicenseTable.builtIn.merging(names: saved.map { ($0.id, $0.name, $0.url) })
    }
}

extension FlickrProvider {
    /// A page whose photos all carry licence ids the built-in table knows is
    /// returned as it is; otherwise Flickr's list is read (once a run, from
    /// the week-old copy on disk when there is one) and the photos' licences
    /// named from it. So a licence Flickr adds shows its real name, at the
    /// cost of one call a week, and only when one turns up.
    func relicensed(_ page: PhotoPage) async -> PhotoPage {
        let unknown = page.photos.contains { $0.credit?.license?.kind == .other && $0.credit?.license?.providerID != nil }
        guard unknown else { return page }
        let table = await licenseNames.table { await licenses(cache: licenseCache) }
        var page = page
        for index in page.photos.indices {
            guard let id = page.photos[index].credit?.license?.providerID else { continue }
            page.photos[index].credit?.license = table.flickr(id: id)
        }
        return page
    }
}

/// Flickr's licence list, read at most once a run by every copy of a provider.
final class LicenseNames: Sendable {
    private let reading = NIOLockedValueBox<Task<FlickrLicenseTable, Never>?>(nil)

    func table(_ read: @escaping @Sendable () async -> FlickrLicenseTable) async -> FlickrLicenseTable {
        let task = reading.withLockedValue { task in
            if let task { return task }
            let started = Task { await read() }
            task = started
            return started
        }
        return await task.value
    }
}

import PhotoCore
import Foundation
import Networking

/// Reads `flickr.photos.getInfo` and `flickr.photos.getSizes` answers in any
/// of Flickr's formats (JSON, JSONP, XML), as leniently as photo lists:
/// numbers may be strings, text may be `{"_content": …}`, fields may be missing.
public enum FlickrDetailsDecoder {
    /// `flickr.photos.getInfo` → the photo's details.
    public static func decodeInfo(_ data: Data) throws(FlickrError) -> PhotoDetails {
        let root = try FlickrResponseDecoder.readTree(data)
        try FlickrResponseDecoder.checkStatus(root)
        guard let photo = FlickrResponseDecoder.first(root["photo"]), let members = photo.objectMembers,
              let id = FlickrResponseDecoder.nonEmpty(members["id"])
        else {
            throw .malformedResponse("the response does not describe a photo: it has no `photo` with an `id`.")
        }
        let owner = FlickrResponseDecoder.first(members["owner"])
        let dates = FlickrResponseDecoder.first(members["dates"])
        let ownerID = FlickrResponseDecoder.nonEmpty(owner?["nsid"])
        let pathAlias = FlickrResponseDecoder.nonEmpty(owner?["path_alias"])
        return PhotoDetails(
            id: id,
            title: members["title"]?.lenientString ?? "",
            description: HTMLText.plainText(members["description"]?.lenientString ?? ""),
            tags: tags(FlickrResponseDecoder.first(members["tags"])?["tag"]),
            ownerID: ownerID,
            ownerUsername: FlickrResponseDecoder.nonEmpty(owner?["username"]),
            ownerRealName: FlickrResponseDecoder.nonEmpty(owner?["realname"]),
            dateTaken: FlickrResponseDecoder.nonEmpty(dates?["taken"]),
            dateUploaded: (dates?["posted"]?.lenientInteger ?? members["dateuploaded"]?.lenientInteger)
                .map { Date(timeIntervalSince1970: TimeInterval($0)) },
            views: members["views"]?.lenientInteger,
            license: members["license"]?.lenientInteger.map(FlickrLicenseTable.builtIn.flickr(id:)),
            pageURL: photoPage(FlickrResponseDecoder.first(members["urls"])?["url"])
                ?? FlickrProvider.photoPageURL(owner: pathAlias ?? ownerID ?? "", photoID: id))
    }

    /// `flickr.photos.getSizes` → every image size, smallest first. Video
    /// entries and sizes without a usable URL are left out.
    public static func decodeSizes(_ data: Data) throws(FlickrError) -> [PhotoRendition] {
        let root = try FlickrResponseDecoder.readTree(data)
        try FlickrResponseDecoder.checkStatus(root)
        guard let sizes = FlickrResponseDecoder.first(root["sizes"]), sizes.objectMembers != nil else {
            throw .malformedResponse("the response is not a list of sizes: it has no `sizes`.")
        }
        let entries: [WireValue]
        switch sizes["size"] {
        case .array(let values)?: entries = values
        case .object?: entries = [sizes["size"] ?? .null]
        case nil, .null?: entries = []
        case let other?: throw .malformedResponse("`sizes.size` is \(other.summary), not a list of sizes.")
        }
        let renditions = entries.compactMap { entry -> PhotoRendition? in
            guard let url = FlickrResponseDecoder.imageURL(entry["source"]),
                  (entry["media"]?.lenientString ?? "photo") == "photo"
            else { return nil }
            let name = entry["label"]?.lenientString ?? ""
            let label = sizeKeys[name] ?? name
            return PhotoRendition(
                label: label, url: url, width: entry["width"]?.lenientInteger, height: entry["height"]?.lenientInteger,
                isCrop: PhotoSize(rawValue: label)?.isSquare ?? false)
        }
        return renditions.sorted(by: Photo.isSmaller)
    }

    /// getSizes names sizes in words; renditions use the `url_*` keys.
    static let sizeKeys: [String: String] = [
        "Square": "sq", "Large Square": "q", "Thumbnail": "t", "Small": "s", "Small 320": "n",
        "Small 400": "w", "Medium": "m", "Medium 640": "z", "Medium 800": "c", "Large": "l",
        "Large 1600": "h", "Large 2048": "k", "X-Large 3K": "3k", "X-Large 4K": "4k",
        "X-Large 5K": "5k", "X-Large 6K": "6k", "Original": "o",
    ]

    /// What the owner typed (`raw`) when it has any letters, else Flickr's
    /// normalised form (`_content`).
    private static func tags(_ value: WireValue?) -> [String] {
        let entries: [WireValue]
        switch value {
        case .array(let values)?: entries = values
        case .object?: entries = [value ?? .null]
        default: return []
        }
        return entries.compactMap { entry in
            let raw = entry["raw"]?.lenientString?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if !raw.isEmpty { return raw }
            let normalised = entry.lenientString?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return normalised.isEmpty ? nil : normalised
        }
    }

    private static func photoPage(_ value: WireValue?) -> URL? {
        let entries: [WireValue]
        switch value {
        case .array(let values)?: entries = values
        case .object?: entries = [value ?? .null]
        default: return nil
        }
        let page = entries.first { $0["type"]?.lenientString == "photopage" }
        return FlickrResponseDecoder.imageURL(page.map { .string($0.lenientString ?? "") })
    }
}

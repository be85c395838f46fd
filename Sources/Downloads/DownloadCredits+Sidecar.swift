import PhotoCore
import Foundation

extension DownloadCredits {
    /// The JSON sidecar's fields. Its `Encodable` form, through a
    /// `JSONEncoder` set as `referenceEncoder` is, defines the file; `json`
    /// writes the same bytes directly.
    struct Sidecar: Encodable {
        struct LicenseFields: Encodable {
            var id: Int?
            var name: String
            var url: String?
        }

        var provider: String
        var id: String
        var title: String
        var creator: String?
        var creatorURL: String?
        var pageURL: String?
        var license: LicenseFields?
        var attribution: String
        var tags: [String]
        var dateTaken: String?
        var dateUploaded: String?
        var file: String
        /// The file's length: how a later run tells a whole video from a part.
        var bytes: Int?
        /// SHA-256 of the file's bytes: a later run keeps the file only if it still matches.
        var sha256: String?
        var size: String
        var retrieved: String
        var record: Photo

        enum CodingKeys: String, CodingKey {
            case provider, id, title, creator, creatorURL = "creator_url", pageURL = "page_url", license, attribution, tags
            case dateTaken = "date_taken", dateUploaded = "date_uploaded", file, bytes, sha256, size, retrieved, record
        }

        init(
            _ photo: Photo, provider: String, file: String, bytes: Int? = nil, sha256: String? = nil, size: String, pageURL: URL?, attribution: String,
            retrieved: String
        ) {
            self.bytes = bytes
            self.sha256 = sha256
            self.provider = provider
            id = photo.id
            title = photo.title
            creator = photo.credit?.creator ?? photo.ownerName
            creatorURL = photo.credit?.creatorURL?.absoluteString
            self.pageURL = pageURL?.absoluteString
            license = photo.credit?.license.map {
                LicenseFields(id: $0.providerID, name: $0.shortName, url: $0.url?.absoluteString)
            }
            self.attribution = attribution
            tags = photo.tags
            dateTaken = photo.dateTaken
            dateUploaded = photo.dateUploaded.map { $0.formatted(.iso8601) }
            self.file = file
            self.size = size
            self.retrieved = retrieved
            record = photo
        }
    }

    /// The encoder whose output the sidecar's bytes are: what files written
    /// by earlier versions hold, and what the tests hold `json` to.
    static var referenceEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The sidecar's bytes, as `referenceEncoder` would write them.
    ///
    /// - Throws: `JSONWriter.NonConformingNumber` for an aspect ratio that
    ///   is not a finite number, as the encoder would.
    static func json(_ sidecar: Sidecar) throws -> Data {
        var members: [(key: String, value: JSONWriter.Value)] = [
            ("provider", .string(sidecar.provider)), ("id", .string(sidecar.id)), ("title", .string(sidecar.title)),
            ("attribution", .string(sidecar.attribution)), ("tags", .array(sidecar.tags.map { .string($0) })),
            ("file", .string(sidecar.file)), ("size", .string(sidecar.size)), ("retrieved", .string(sidecar.retrieved)),
            ("record", try json(sidecar.record)),
        ]
        if let creator = sidecar.creator { members.append(("creator", .string(creator))) }
        if let url = sidecar.creatorURL { members.append(("creator_url", .string(url))) }
        if let url = sidecar.pageURL { members.append(("page_url", .string(url))) }
        if let license = sidecar.license {
            var fields: [(key: String, value: JSONWriter.Value)] = [("name", .string(license.name))]
            if let id = license.id { fields.append(("id", .number(id))) }
            if let url = license.url { fields.append(("url", .string(url))) }
            members.append(("license", .object(fields)))
        }
        if let date = sidecar.dateTaken { members.append(("date_taken", .string(date))) }
        if let date = sidecar.dateUploaded { members.append(("date_uploaded", .string(date))) }
        if let bytes = sidecar.bytes { members.append(("bytes", .number(bytes))) }
        if let digest = sidecar.sha256 { members.append(("sha256", .string(digest))) }
        return JSONWriter.data(.object(members))
    }

    /// `Photo`'s `Encodable` form (its own keys, what it leaves out when
    /// empty), with dates as ISO 8601.
    private static func json(_ photo: Photo) throws -> JSONWriter.Value {
        var members: [(key: String, value: JSONWriter.Value)] = [
            ("id", .string(photo.id)), ("owner", .string(photo.owner)), ("title", .string(photo.title)),
            ("renditions", .array(photo.renditions.map { json($0) })),
        ]
        if let name = photo.ownerName { members.append(("ownerName", .string(name))) }
        if let date = photo.dateTaken { members.append(("dateTaken", .string(date))) }
        if let ratio = photo.aspectRatio { members.append(("aspectRatio", try .number(ratio))) }
        if !photo.providerKeys.isEmpty {
            members.append(("providerKeys", .object(photo.providerKeys.map { ($0.key, .string($0.value)) })))
        }
        if let credit = photo.credit { members.append(("credit", json(credit))) }
        if !photo.tags.isEmpty { members.append(("tags", .array(photo.tags.map { .string($0) }))) }
        if let date = photo.dateUploaded { members.append(("dateUploaded", .string(date.formatted(.iso8601)))) }
        if photo.isVideo { members.append(("isVideo", .bool(true))) }
        if let visibility = photo.visibility {
            members.append(("visibility", .object([
                ("isPublic", .bool(visibility.isPublic)), ("isFriend", .bool(visibility.isFriend)), ("isFamily", .bool(visibility.isFamily)),
            ])))
        }
        return .object(members)
    }

    private static func json(_ rendition: PhotoRendition) -> JSONWriter.Value {
        var members: [(key: String, value: JSONWriter.Value)] = [("label", .string(rendition.label)), ("url", .string(rendition.url))]
        if let width = rendition.width { members.append(("width", .number(width))) }
        if let height = rendition.height { members.append(("height", .number(height))) }
        if rendition.isCrop { members.append(("isCrop", .bool(true))) }
        return .object(members)
    }

    private static func json(_ credit: PhotoCredit) -> JSONWriter.Value {
        var members: [(key: String, value: JSONWriter.Value)] = []
        if let license = credit.license { members.append(("license", json(license))) }
        if let creator = credit.creator { members.append(("creator", .string(creator))) }
        if let url = credit.creatorURL { members.append(("creatorURL", .string(url))) }
        if let attribution = credit.attribution { members.append(("attribution", .string(attribution))) }
        if let url = credit.pageURL { members.append(("pageURL", .string(url))) }
        if let source = credit.source { members.append(("source", .string(source))) }
        if let type = credit.fileType { members.append(("fileType", .string(type))) }
        return .object(members)
    }

    private static func json(_ license: License) -> JSONWriter.Value {
        var members: [(key: String, value: JSONWriter.Value)] = [
            ("kind", .string(license.kind.rawValue)), ("shortName", .string(license.shortName)), ("fullName", .string(license.fullName)),
        ]
        if let version = license.version { members.append(("version", .string(version))) }
        if let url = license.url { members.append(("url", .string(url))) }
        if let id = license.providerID { members.append(("providerID", .number(id))) }
        return .object(members)
    }
}

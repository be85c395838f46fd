import PhotoCore
@testable import Downloads
import Foundation
import Testing

/// A rerun trusts a sidecar whose inputs' digest is the one recorded: every
/// field the sidecar is made from must move the digest.
@Suite struct DownloadSidecarInputsTests {
    private static let work = Photo(
        id: "1", owner: "99@N00", ownerName: "ana", title: "Tram", dateTaken: "2019-06-01 14:03:22",
        renditions: [PhotoRendition(label: "q", url: URL(fileURLWithPath: "/q.jpg"), width: 150, height: 150, isCrop: true)],
        aspectRatio: 1.5, providerKeys: ["secret": "s1"],
        credit: PhotoCredit(
            license: License(kind: .by, version: "2.0", shortName: "CC BY 2.0", fullName: "Attribution", url: URL(fileURLWithPath: "/by"), providerID: 4),
            creator: "Ana", creatorURL: URL(fileURLWithPath: "/ana"), attribution: "a line", pageURL: URL(fileURLWithPath: "/p"), source: "flickr",
            fileType: "jpg"),
        tags: ["tram"], dateUploaded: Date(timeIntervalSince1970: 1_600_000_000), isVideo: false)

    private static func inputs(_ photo: Photo, file: String = "1.jpg", bytes: Int? = 10, sha256: String? = "ab", size: String = "q") -> String {
        DownloadCredits.inputs(of: photo, provider: "flickr", file: file, bytes: bytes, sha256: sha256, size: size, pageURL: nil)
    }

    private static func license(_ change: @escaping @Sendable (inout (String?, String, String, URL?, Int?)) -> Void) -> @Sendable (inout Photo) -> Void {
        { photo in
            guard let old = photo.credit?.license else { return }
            var fields = (old.version, old.shortName, old.fullName, old.url, old.providerID)
            change(&fields)
            photo.credit?.license = License(kind: old.kind, version: fields.0, shortName: fields.1, fullName: fields.2, url: fields.3, providerID: fields.4)
        }
    }

    /// One change to each field a sidecar or credit line is made from.
    private static let changes: [(String, @Sendable (inout Photo) -> Void)] = [
        ("id", { $0.id = "2" }), ("owner", { $0.owner = "1@N00" }), ("ownerName", { $0.ownerName = nil }), ("title", { $0.title = "Tram 28" }),
        ("dateTaken", { $0.dateTaken = nil }), ("rendition label", { $0.renditions[0].label = "s" }),
        ("rendition url", { $0.renditions[0].url = URL(fileURLWithPath: "/s.jpg") }), ("rendition width", { $0.renditions[0].width = nil }),
        ("rendition height", { $0.renditions[0].height = 75 }), ("rendition crop", { $0.renditions[0].isCrop = false }),
        ("aspectRatio", { $0.aspectRatio = 1.25 }), ("providerKeys", { $0.providerKeys["server"] = "1" }), ("credit", { $0.credit = nil }),
        ("license", { $0.credit?.license = nil }), ("licence kind", { photo in
            guard let old = photo.credit?.license else { return }
            photo.credit?.license = License(kind: .bySA, version: old.version, shortName: old.shortName, fullName: old.fullName, url: old.url, providerID: old.providerID)
        }),
        ("licence version", license { $0.0 = "4.0" }), ("licence short name", license { $0.1 = "CC BY 4.0" }),
        ("licence full name", license { $0.2 = "Attribution 4.0" }), ("licence url", license { $0.3 = nil }), ("licence id", license { $0.4 = 5 }),
        ("creator", { $0.credit?.creator = "Bea" }), ("creatorURL", { $0.credit?.creatorURL = nil }), ("attribution", { $0.credit?.attribution = "" }),
        ("credit pageURL", { $0.credit?.pageURL = nil }), ("source", { $0.credit?.source = "nasa" }), ("fileType", { $0.credit?.fileType = "png" }),
        ("tags", { $0.tags.append("lisbon") }), ("dateUploaded", { $0.dateUploaded = Date(timeIntervalSince1970: 1_600_000_001) }),
        ("isVideo", { $0.isVideo = true }), ("visibility", { $0.visibility = .everyone }),
        ("private", { $0.visibility = Photo.Visibility(isPublic: false) }),
        ("friends", { $0.visibility = Photo.Visibility(isPublic: false, isFriend: true) }),
        ("family", { $0.visibility = Photo.Visibility(isPublic: false, isFamily: true) }),
    ]

    @Test func everyFieldOfTheWorkMovesTheDigest() {
        var seen = [Self.inputs(Self.work): "nothing"]
        for (field, change) in Self.changes {
            var photo = Self.work
            change(&photo)
            let digest = Self.inputs(photo)
            #expect(seen[digest] == nil, "changing \(field) gives the digest of \(seen[digest] ?? "")")
            seen[digest] = field
        }
        for (field, digest) in [("file", Self.inputs(Self.work, file: "1.png")), ("bytes", Self.inputs(Self.work, bytes: nil)),
                                ("sha256", Self.inputs(Self.work, sha256: "cd")), ("size", Self.inputs(Self.work, size: "o"))] {
            #expect(seen[digest] == nil, "changing \(field) gives the digest of \(seen[digest] ?? "")")
            seen[digest] = field
        }
    }

    /// A field added to the record must be added to the digest (and to this list).
    @Test func theDigestCoversEveryStoredFieldOfTheRecord() throws {
        let labels = { (value: Any) in Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        let credit = try #require(Self.work.credit)
        #expect(labels(Self.work) == ["id", "owner", "ownerName", "title", "dateTaken", "renditions", "aspectRatio", "providerKeys", "credit",
                                      "tags", "dateUploaded", "isVideo", "visibility"])
        #expect(labels(Self.work.renditions[0]) == ["label", "url", "width", "height", "isCrop"])
        #expect(labels(credit) == ["license", "creator", "creatorURL", "attribution", "pageURL", "source", "fileType"])
        #expect(labels(try #require(credit.license)) == ["kind", "version", "shortName", "fullName", "url", "providerID"])
    }
}

import PhotoCore
import Foundation
import Platform

extension DownloadCredits {
    /// Raised whenever what a sidecar holds, or how it is written, changes:
    /// every stamp recorded before then stops matching, and a rerun checks
    /// and rewrites the sidecars in full.
    static let sidecarFormat = 1

    /// A digest of everything a work's sidecars and its line in CREDITS.md
    /// are made from (every field of the photo as the provider described it,
    /// its page, its file), without writing either: a rerun compares it with
    /// the one recorded to know that a sidecar would come out the same.
    /// SHA-256, because a server chooses most of these bytes: with a fast
    /// non-cryptographic digest it could pick a changed title whose digest
    /// is the old one's, and the sidecar would never be written again.
    static func inputs(
        of photo: Photo, provider: String, file: String, bytes: Int?, sha256: String?, size: String, pageURL: URL?
    ) -> String {
        var fields = FieldBytes()
        fields.add(sidecarFormat)
        fields.add(provider)
        fields.add(file)
        fields.add(bytes)
        fields.add(sha256)
        fields.add(size)
        fields.add(pageURL?.absoluteString)
        fields.add(photo)
        return SHA256.hex(Data(fields.bytes))
    }

    /// Fields in a fixed order, each marked present or absent and texts
    /// prefixed with their length, so no two different photos give the same bytes.
    struct FieldBytes {
        private(set) var bytes: [UInt8] = []

        init() {
            bytes.reserveCapacity(1_024)
        }

        mutating func add(_ value: Int?) {
            guard let value else { return absent() }
            bytes.append(1)
            withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func add(_ value: Double?) {
            add(value.map { Int(Int64(bitPattern: $0.bitPattern)) })
        }

        mutating func add(_ flag: Bool) {
            bytes.append(flag ? 1 : 0)
        }

        mutating func add(_ text: String?) {
            guard let text else { return absent() }
            add(text.utf8.count)
            bytes.append(contentsOf: text.utf8)
        }

        mutating func add(_ texts: [String]) {
            add(texts.count)
            for text in texts { add(text) }
        }

        private mutating func absent() {
            bytes.append(0)
        }

        mutating func add(_ photo: Photo) {
            add(photo.id)
            add(photo.owner)
            add(photo.ownerName)
            add(photo.title)
            add(photo.dateTaken)
            add(photo.renditions.count)
            for rendition in photo.renditions {
                add(rendition.label)
                add(rendition.url.absoluteString)
                add(rendition.width)
                add(rendition.height)
                add(rendition.isCrop)
            }
            add(photo.aspectRatio)
            // By key's bytes: a dictionary's order changes from run to run.
            let keys = photo.providerKeys.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            add(keys.count)
            for (key, value) in keys {
                add(key)
                add(value)
            }
            add(photo.credit != nil)
            if let credit = photo.credit {
                add(credit.license != nil)
                if let license = credit.license {
                    add(license.kind.rawValue)
                    add(license.version)
                    add(license.shortName)
                    add(license.fullName)
                    add(license.url?.absoluteString)
                    add(license.providerID)
                }
                add(credit.creator)
                add(credit.creatorURL?.absoluteString)
                add(credit.attribution)
                add(credit.pageURL?.absoluteString)
                add(credit.source)
                add(credit.fileType)
            }
            add(photo.tags)
            add(photo.dateUploaded?.timeIntervalSince1970)
            add(photo.isVideo)
            add(photo.visibility != nil)
            if let visibility = photo.visibility {
                add(visibility.isPublic)
                add(visibility.isFriend)
                add(visibility.isFamily)
            }
        }
    }
}

import Foundation
import Platform

/// Images on disk, one file per URL: a `DiskStore` whose entries are
/// images that decoded whole when they were stored (a file that is not an
/// image, or was cut, is deleted on reading and counts as a miss).
///
/// Entries are version 2: version 1 entries were checked by their first and
/// last bytes only, so they are dropped and fetched again. Reading needs the
/// checksum, not a second decode: that kept a warm page's 30 reads waiting
/// on the decoder.
///
/// `data(for:)` blocks on file I/O: call it off the main thread.
final class ImageDiskCache: Sendable {
    static let entry = DiskStoreEntry(magic: "FLKRIMG", version: 2) { ImageFormat.sniff($0) != nil }
    static let kind = DiskStore.Kind(entry: entry, fileExtension: "img", noun: "image cache")
    static var fileExtension: String { kind.fileExtension }

    let store: DiskStore
    var trimTarget: Int { store.trimTarget }

    init(directory: URL, sizeLimit: Int, onFirstWriteFailure: (@Sendable (String) -> Void)? = nil) {
        store = DiskStore(directory: directory, sizeLimit: sizeLimit, kind: Self.kind, onFirstWriteFailure: onFirstWriteFailure)
    }

    func fileURL(for url: URL) -> URL { store.fileURL(for: url.absoluteString) }
    static func fileName(for url: URL) -> String {
        DiskStore.fileName(for: url.absoluteString, fileExtension: fileExtension)
    }

    func data(for url: URL) -> Data? { store.data(for: url.absoluteString) }
    func store(_ data: Data, for url: URL) { store.store(data, for: url.absoluteString) }
    func flush() async { await store.flush() }
    func diskUsage() -> Int { store.diskUsage() }
    func writeFailures() -> DiskStore.WriteFailures { store.writeFailures() }
}

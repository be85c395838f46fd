import PhotoCore
import Foundation

/// Picks each file's name, without extension, in the order the photos come:
/// the `--name` template's (or, without one, `{id}_{secret}_{suffix}`), with
/// ` (2)`, ` (3)`… when the name is already used in this run or by another
/// work in the folder. The same photos in the same order get the same names
/// on every run, which is what lets a second run find the first run's files.
struct DownloadNaming: Sendable {
    let template: FileNameTemplate?
    let size: PhotoSize
    /// The album's title when downloading an album, else empty.
    let album: String
    /// Names given in this run, case-folded: `Sunset` and `sunset` are one
    /// file on macOS and Windows.
    private var used: Set<String> = []

    init(template: FileNameTemplate?, size: PhotoSize, album: String) {
        self.template = template
        self.size = size
        self.album = album
    }

    /// The name for `photo`, the `index`th of the download (1-based).
    /// `isTaken` says whether a name belongs to another work in the folder.
    mutating func baseName(for photo: Photo, index: Int, isTaken: (String) -> Bool) -> String {
        let wanted = template.map { $0.name(for: .init(photo: photo, index: index, album: album)) }
            ?? DownloadFolder.baseName(for: photo, size: size)
        if used.contains(Self.key(wanted)) || isTaken(wanted) { return numbered(wanted, isTaken: isTaken) }
        used.insert(Self.key(wanted))
        return wanted
    }

    /// The first of `name (2)`, `name (3)`… free in this run and in the
    /// folder: for a photo whose name is used, or whose file under it proved
    /// to be something else.
    mutating func numbered(_ name: String, isTaken: (String) -> Bool) -> String {
        var number = 2
        while used.contains(Self.key("\(name) (\(number))")) || isTaken("\(name) (\(number))") { number += 1 }
        let candidate = "\(name) (\(number))"
        used.insert(Self.key(candidate))
        return candidate
    }

    private static func key(_ name: String) -> String {
        // ASCII has no other composed form: Foundation's normalising took a
        // tenth of a rerun's check of 300 names.
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.lowercased() }
        return name.precomposedStringWithCanonicalMapping.lowercased()
    }
}

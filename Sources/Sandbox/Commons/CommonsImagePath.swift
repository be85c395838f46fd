import Foundation

/// An image request on Commons' upload paths:
/// `/wikipedia/commons/a/ab/NAME` (the file) or
/// `/wikipedia/commons/thumb/a/ab/NAME/{W}px-NAME` (a thumbnail; a video's
/// poster adds `.jpg`). The photo is found by the id in the name's
/// `(ID).ext`, so a renamed title still finds it.
struct CommonsImagePath: Equatable {
    enum Kind: Equatable {
        case original
        case thumbnail(width: Int)
    }

    var photoID: String
    var kind: Kind

    init?(_ path: String) {
        guard path.hasPrefix("/wikipedia/commons/") else { return nil }
        let parts = path.dropFirst("/wikipedia/commons/".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let name: String
        if parts.count == 5, parts[0] == "thumb" {
            name = parts[3]
            let thumbnail = parts[4]
            guard let px = thumbnail.range(of: "px-"), let width = Int(thumbnail[..<px.lowerBound]), width > 0, width <= 10_000,
                  thumbnail[px.upperBound...].hasPrefix(name)
            else { return nil }
            kind = .thumbnail(width: width)
        } else if parts.count == 3 {
            name = parts[2]
            kind = .original
        } else {
            return nil
        }
        guard let id = Self.photoID(in: name.removingPercentEncoding ?? name) else { return nil }
        photoID = id
    }

    /// The digits of the last `(…)` before the extension.
    private static func photoID(in name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), let open = name[..<dot].lastIndex(of: "("),
              name[name.index(before: dot)] == ")"
        else { return nil }
        let digits = name[name.index(after: open)..<name.index(before: dot)]
        guard !digits.isEmpty, digits.count <= 20, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return String(digits)
    }
}

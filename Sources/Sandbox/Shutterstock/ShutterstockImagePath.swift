import Foundation

/// `/image-photo/{slug}-{variant}-{id}.jpg`, Shutterstock's asset URLs.
struct ShutterstockImagePath: Equatable {
    var id: String
    var asset: ShutterstockAsset

    init?(_ path: String) {
        guard path.hasPrefix("/image-photo/"), path.hasSuffix(".jpg") else { return nil }
        let name = path.dropFirst("/image-photo/".count).dropLast(4)
        let pieces = name.split(separator: "-")
        guard pieces.count >= 3, !name.contains("/"), let asset = ShutterstockAsset(variant: String(pieces[pieces.count - 2]))
        else { return nil }
        id = String(pieces[pieces.count - 1])
        self.asset = asset
    }
}

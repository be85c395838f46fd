import Foundation

/// `/{server}/{id}_{secret}[_{suffix}].jpg`, taken apart.
struct ImagePath: Equatable {
    var server: String
    var id: String
    var secret: String
    var size: SandboxImageSize

    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasSuffix(".jpg") else { return nil }
        let pieces = parts[2].dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
        guard pieces.count == 2 || pieces.count == 3,
              let size = SandboxImageSize(urlSuffix: pieces.count == 3 ? String(pieces[2]) : nil)
        else { return nil }
        server = String(parts[1])
        id = String(pieces[0])
        secret = String(pieces[1])
        self.size = size
    }
}

import Foundation

/// Executables built by this package, found next to the running test
/// bundle (the build products folder), whatever the build configuration or
/// build path.
public enum Binaries {
    /// The `flickr` executable.
    public static var flickr: String {
        get throws(BinaryNotFound) { try product(named: "flickr") }
    }

    /// The executable `name` from the build products folder.
    public static func product(named name: String) throws(BinaryNotFound) -> String {
        let folders = productFolders()
        for folder in folders {
            let candidate = folder.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory),
               !isDirectory.boolValue, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw BinaryNotFound(name: name, searched: folders.map(\.path))
    }

    /// Folders that may hold the products: the test bundle's own folder
    /// (found several ways, as each runner reports it differently), and the
    /// folder above a `.xctest` bundle directory.
    static func productFolders() -> [URL] {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable) }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("placeholder"))
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: link))
        }
        if let first = CommandLine.arguments.first, first.contains("/") {
            candidates.append(URL(fileURLWithPath: first).standardizedFileURL)
        }
        var folders: [URL] = []
        for candidate in candidates {
            var folder = candidate.resolvingSymlinksInPath().deletingLastPathComponent()
            // Inside a bundle directory (…/Foo.xctest/Contents/MacOS/Foo): climb out of it.
            while let index = folder.pathComponents.lastIndex(where: { $0.hasSuffix(".xctest") }) {
                folder = URL(fileURLWithPath: NSString.path(withComponents: Array(folder.pathComponents[..<index])))
            }
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }
}

/// The build did not produce the executable a test needs.
public struct BinaryNotFound: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var searched: [String]

    public var description: String {
        "The `\(name)` executable was not found next to the test bundle (looked in \(searched.joined(separator: ", "))). "
            + "Build it first: `swift build` (or run the tests with `swift test`, which builds every product)."
    }
}

import PhotoCore
import Foundation

/// `--name '{id}_{title}'`: how `flickr download` names each file (without
/// its extension). Parsed once, before any request, so a mistake in it is
/// reported before anything is fetched.
public struct FileNameTemplate: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case id, title, owner
        case dateTaken = "date_taken"
        case index, album
    }

    enum Part: Sendable, Equatable {
        case text(String)
        case field(Field)
    }

    let parts: [Part]

    /// What a field is filled with for one photo.
    public struct Values: Sendable {
        public var photo: Photo
        /// 1-based over the whole download, in the provider's order.
        public var index: Int
        /// The album's title when downloading an album, else empty.
        public var album: String

        public init(photo: Photo, index: Int, album: String = "") {
            self.photo = photo
            self.index = index
            self.album = album
        }
    }

    /// - Throws: `FileNameTemplateError` naming the mistake.
    public init(_ text: String) throws(FileNameTemplateError) {
        var parts: [Part] = []
        var literal = String.UnicodeScalarView()
        // By scalar: a combining mark after a brace (`}\u{301}`) must not hide it.
        var rest = Substring(text).unicodeScalars
        while let character = rest.first {
            rest.removeFirst()
            switch character {
            case "{":
                guard let close = rest.firstIndex(of: "}") else {
                    throw FileNameTemplateError("--name \(SafeFileName.quoted(text)): a “{” is never closed; fields are written {id}.")
                }
                let name = String(rest[..<close])
                guard let field = Field(rawValue: name) else {
                    let known = Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                    let what = name.isEmpty ? "an empty field {}" : "unknown field {\(name.prefix(40))}"
                    throw FileNameTemplateError("--name \(SafeFileName.quoted(text)): \(what). Fields: \(known).")
                }
                if !literal.isEmpty { parts.append(.text(String(literal))) }
                literal = String.UnicodeScalarView()
                parts.append(.field(field))
                rest = rest[rest.index(after: close)...]
            case "}":
                throw FileNameTemplateError("--name \(SafeFileName.quoted(text)): a “}” with no “{” before it.")
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { parts.append(.text(String(literal))) }
        guard parts.contains(where: { if case .field = $0 { true } else { false } }) else {
            throw FileNameTemplateError(
                "--name \(SafeFileName.quoted(text)) names every file the same: use a field such as {id} or {title}.")
        }
        self.parts = parts
    }

    /// The template as `--name` takes it: what `init` parses back to this
    /// template (a literal never holds a brace, which `init` refuses).
    public var text: String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .field(let field): "{\(field.rawValue)}"
            }
        }.joined()
    }

    /// The file name for one photo, made safe for any file system; the
    /// photo's id when nothing else is left.
    public func name(for values: Values) -> String {
        let raw = parts.map { part in
            switch part {
            case .text(let text): text
            case .field(let field): Self.value(of: field, in: values)
            }
        }.joined()
        return SafeFileName.make(raw, fallback: values.photo.id)
    }

    static func value(of field: Field, in values: Values) -> String {
        let photo = values.photo
        switch field {
        case .id: return photo.id
        case .title: return photo.title
        case .owner: return photo.ownerName.flatMap { $0.isEmpty ? nil : $0 } ?? photo.owner
        // `2019-06-01 14:03:22` → `2019-06-01_14-03-22`: sorts by date, no colon.
        case .dateTaken:
            return (photo.dateTaken ?? "").replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: ":", with: "-")
        case .index: return String(values.index)
        case .album: return values.album
        }
    }
}

/// A `--name` template that cannot be used, and why.
public struct FileNameTemplateError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}

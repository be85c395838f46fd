import Foundation
import PhotoCore

/// Reads `.flickr-manifest.json` through the project's own JSON reader, as
/// strictly as the `Codable` conformances would (a record missing a name it
/// needs, or holding a value of the wrong kind, makes the whole file unread,
/// and the next run checks every file in full). `JSONDecoder` took 7 ms for
/// 300 records, most of it in the runtime's conformance lookups, on the two
/// cores that the page requests and their answers need.
extension DownloadManifest {
    static func decoded(_ data: Data) -> Contents? {
        // JSONDecoder refuses text that is not UTF-8, and control characters
        // in strings; the reader keeps both for the title sanitiser.
        guard !hasControlInAString(data), String(validating: data, as: UTF8.self) != nil,
              let tree = try? JSONReader.read(data), let members = tree.objectMembers,
              members["version"].flatMap(Self.integer) != nil,
              case .object(let records)? = members["files"]
        else { return nil }
        var contents = Contents()
        contents.version = members["version"].flatMap(Self.integer) ?? contents.version
        contents.files.reserveCapacity(records.count)
        for (name, value) in records {
            guard let record = Self.record(value) else { return nil }
            contents.files[name] = record
        }
        guard let credits = Self.optional(members["credits"], Self.stamp) else { return nil }
        contents.credits = credits
        return contents
    }

    /// Whether a byte below 0x20 stands inside a string (outside one, tab,
    /// line feed and carriage return are JSON's white space: a manifest
    /// pretty-printed by hand still reads).
    private static func hasControlInAString(_ data: Data) -> Bool {
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if byte < 0x20 { return true }
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
        }
        return false
    }

    private static func record(_ value: WireValue) -> Record? {
        guard let members = value.objectMembers,
              case .string(let provider)? = members["provider"], case .string(let id)? = members["id"],
              let file = optional(members["file"], string), let bytes = optional(members["bytes"], integer),
              let sha256 = optional(members["sha256"], string), let modified = optional(members["modified"], double),
              let sidecars = optional(members["sidecars"], stamp)
        else { return nil }
        return Record(provider: provider, id: id, file: file, bytes: bytes, sha256: sha256, modified: modified, sidecars: sidecars)
    }

    private static func stamp(_ value: WireValue) -> Stamp? {
        guard let members = value.objectMembers, case .string(let inputs)? = members["inputs"],
              case .array(let list)? = members["files"]
        else { return nil }
        var files: [FileStatus] = []
        files.reserveCapacity(list.count)
        for file in list {
            guard let status = file.objectMembers, let bytes = status["bytes"].flatMap(integer),
                  let modified = status["modified"].flatMap(double)
            else { return nil }
            files.append(FileStatus(bytes: bytes, modified: modified))
        }
        return Stamp(inputs: inputs, files: files)
    }

    /// What `decodeIfPresent` gives: `.some(nil)` when the member is absent
    /// or null, nil (unreadable) when it holds the wrong kind of value.
    private static func optional<T>(_ value: WireValue?, _ read: (WireValue) -> T?) -> T?? {
        guard let value, value != .null else { return .some(nil) }
        return read(value).map { .some($0) }
    }

    private static func string(_ value: WireValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// Whole numbers only (the reader makes `5.0` whole, as JSONDecoder reads it).
    private static func integer(_ value: WireValue) -> Int? {
        if case .integer(let whole) = value { return whole }
        return nil
    }

    /// A finite number: the reader gives `1e999` as infinity, which
    /// JSONDecoder refuses and no manifest can be written with.
    private static func double(_ value: WireValue) -> Double? {
        switch value {
        case .integer(let whole): Double(whole)
        case .number(let number) where number.isFinite: number
        default: nil
        }
    }
}

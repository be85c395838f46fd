import Foundation

/// The on-disk layout of one entry (little-endian):
/// magic `FLKRIMG` + version (8 bytes), URL length (4), data length (8),
/// FNV-1a 64 of the data (8), the URL in UTF-8, then the data.
///
/// Only images that decoded whole are stored (version 2 on; version 1
/// entries were checked by their first and last bytes only, so they are
/// dropped and fetched again). Reading then needs the checksum, not a
/// second decode: that kept a warm page's 30 reads waiting on the decoder.
enum CacheEntry {
    static let magic: [UInt8] = Array("FLKRIMG".utf8)
    static let version: UInt8 = 2
    static let headerSize = 28
    /// No real URL is longer; a bigger value means the header is damaged.
    static let maxURLLength = 64 << 10

    struct Decoded {
        var url: String
        var data: Data
    }

    enum Damage: Error, Equatable {
        case badMagic, unsupportedVersion, badLength, checksumMismatch, notAnImage
    }

    static func encode(url: String, data: Data) -> Data {
        let urlBytes = Array(url.utf8)
        var out = Data(capacity: headerSize + urlBytes.count + data.count)
        out.append(contentsOf: magic)
        out.append(version)
        appendLittleEndian(UInt32(urlBytes.count), to: &out)
        appendLittleEndian(UInt64(data.count), to: &out)
        appendLittleEndian(FNV1a64.hash(data), to: &out)
        out.append(contentsOf: urlBytes)
        out.append(data)
        return out
    }

    static func decode(_ entry: Data) -> Result<Decoded, Damage> {
        let bytes = [UInt8](entry.prefix(headerSize))
        guard bytes.count == headerSize, bytes.starts(with: magic) else { return .failure(.badMagic) }
        guard bytes[7] == version else { return .failure(.unsupportedVersion) }
        let urlLength = Int(readLittleEndian(UInt32.self, bytes, at: 8))
        let dataLength = readLittleEndian(UInt64.self, bytes, at: 12)
        let checksum = readLittleEndian(UInt64.self, bytes, at: 20)
        guard urlLength <= maxURLLength, dataLength <= UInt64(Int.max / 2),
              entry.count == headerSize + urlLength + Int(dataLength)
        else { return .failure(.badLength) }
        let start = entry.startIndex + headerSize
        let urlData = entry[start ..< start + urlLength]
        let data = Data(entry[(start + urlLength)...])
        guard FNV1a64.hash(data) == checksum else { return .failure(.checksumMismatch) }
        guard ImageFormat.sniff(data) != nil else { return .failure(.notAnImage) }
        return .success(Decoded(url: String(decoding: urlData, as: UTF8.self), data: data))
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func readLittleEndian<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        for index in 0 ..< MemoryLayout<T>.size {
            value |= T(bytes[offset + index]) << (8 * index)
        }
        return value
    }
}

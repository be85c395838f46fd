import Foundation

/// The on-disk layout of one `DiskStore` entry (little-endian): a 7-byte
/// magic naming what the store holds, a version (1), key length (4), data
/// length (8), FNV-1a 64 of the data (8), the key in UTF-8, then the data.
///
/// A truncated, torn or flipped entry fails its length or checksum; the
/// store's own `accepts` check then runs on the data, so an entry is handed
/// out only when it is whole and of the kind the store keeps.
public struct DiskStoreEntry: Sendable {
    public static let headerSize = 28
    /// No real key is longer; a bigger value means the header is damaged.
    static let maxKeyLength = 64 << 10

    /// Seven ASCII bytes, such as `FLKRIMG`.
    public let magic: [UInt8]
    public let version: UInt8
    /// Whether the data of an entry that is whole is also of the right kind.
    public let accepts: @Sendable (Data) -> Bool

    public init(magic: String, version: UInt8, accepts: @escaping @Sendable (Data) -> Bool = { _ in true }) {
        precondition(magic.utf8.count == 7, "a disk store's magic is 7 bytes")
        self.magic = Array(magic.utf8)
        self.version = version
        self.accepts = accepts
    }

    public struct Decoded: Sendable {
        public var key: String
        public var data: Data
    }

    public enum Damage: Error, Equatable {
        case badMagic, unsupportedVersion, badLength, checksumMismatch, rejected
    }

    public func encode(key: String, data: Data) -> Data {
        let keyBytes = Array(key.utf8)
        var out = Data(capacity: Self.headerSize + keyBytes.count + data.count)
        out.append(contentsOf: magic)
        out.append(version)
        Self.appendLittleEndian(UInt32(keyBytes.count), to: &out)
        Self.appendLittleEndian(UInt64(data.count), to: &out)
        Self.appendLittleEndian(FNV1a64.hash(data), to: &out)
        out.append(contentsOf: keyBytes)
        out.append(data)
        return out
    }

    public func decode(_ entry: Data) -> Result<Decoded, Damage> {
        let bytes = [UInt8](entry.prefix(Self.headerSize))
        guard bytes.count == Self.headerSize, bytes.starts(with: magic) else { return .failure(.badMagic) }
        guard bytes[7] == version else { return .failure(.unsupportedVersion) }
        let keyLength = Int(Self.readLittleEndian(UInt32.self, bytes, at: 8))
        let dataLength = Self.readLittleEndian(UInt64.self, bytes, at: 12)
        let checksum = Self.readLittleEndian(UInt64.self, bytes, at: 20)
        guard keyLength <= Self.maxKeyLength, dataLength <= UInt64(Int.max / 2),
              entry.count == Self.headerSize + keyLength + Int(dataLength)
        else { return .failure(.badLength) }
        let start = entry.startIndex + Self.headerSize
        let keyData = entry[start ..< start + keyLength]
        let data = Data(entry[(start + keyLength)...])
        guard FNV1a64.hash(data) == checksum else { return .failure(.checksumMismatch) }
        guard accepts(data) else { return .failure(.rejected) }
        return .success(Decoded(key: String(decoding: keyData, as: UTF8.self), data: data))
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

import CZlib
import Foundation
import NIOCore

/// gzip (RFC 1952) for API responses, as Flickr's and Openverse's servers
/// send them to clients that accept it.
enum Gzip {
    /// Whether an `Accept-Encoding` header accepts gzip: listed (or `*`)
    /// and not with `q=0`.
    static func isAccepted(by header: String?) -> Bool {
        guard let header else { return false }
        var starQuality: Bool?
        for item in header.split(separator: ",") {
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = fields.first else { continue }
            let refused = fields.dropFirst().contains { field in
                let pair = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return pair.count == 2 && pair[0] == "q" && (Double(pair[1]) ?? 1) == 0
            }
            if coding == "gzip" || coding == "x-gzip" { return !refused }
            if coding == "*" { starQuality = !refused }
        }
        return starQuality ?? false
    }

    /// The gzip stream of `body`, or nil if zlib fails.
    static func compress(_ body: ByteBuffer, level: Int32 = 6) -> ByteBuffer? {
        var stream = z_stream()
        // 15 window bits plus 16: a gzip header and trailer instead of zlib's.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var input = Array(body.readableBytesView)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return ByteBuffer(bytes: output[0..<Int(stream.total_out)])
    }
}

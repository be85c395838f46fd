import CWebP
import Foundation
@testable import Sandbox
import TestSupport
import Testing

/// Openverse's thumbnails and full-size images, in JPEG, PNG, GIF and WebP,
/// each checked with a real decoder.
@Suite struct OpenverseImageTests {
    /// Width, height and RGB pixels as a real decoder reads `bytes`.
    static func decode(_ bytes: Data, as format: SandboxImageFormat) async throws -> (width: Int, height: Int, rgb: [UInt8]) {
        switch format {
        case .webp:
            var width: Int32 = 0
            var height: Int32 = 0
            let pixels = bytes.withUnsafeBytes { raw -> [UInt8]? in
                let base = raw.bindMemory(to: UInt8.self).baseAddress
                guard let decoded = WebPDecodeRGB(base, raw.count, &width, &height) else { return nil }
                defer { WebPFree(decoded) }
                return Array(UnsafeBufferPointer(start: decoded, count: Int(width * height * 3)))
            }
            guard let pixels else { throw TestFailure("libwebp could not decode the WebP") }
            return (Int(width), Int(height), pixels)
        case .jpeg:
            guard let size = jpegDimensions(bytes) else { throw TestFailure("not a JPEG") }
            return (size.width, size.height, [])
        case .png, .gif:
            let tool = try #require(decoderTool(format == .png ? "pngtopnm" : "giftopnm"))
            return try await Self.pnm(tool, bytes)
        }
    }

    /// Runs a netpbm decoder and parses its binary PPM.
    private static func pnm(_ tool: String, _ bytes: Data) async throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let directory = try TemporaryDirectory(prefix: "openverse-image")
        let file = directory.url.appendingPathComponent("image")
        try bytes.write(to: file)
        let run = try await ProcessRunner.run(tool, arguments: [file.path], environment: ProcessInfo.processInfo.environment)
        guard run.status == .exited(0) else { throw TestFailure("\(tool) failed: \(run.transcript)") }
        let output = run.standardOutput
        // "P6\n<width> <height>\n255\n" then the pixels.
        var fields: [String] = []
        var current = ""
        var index = 0
        while fields.count < 4, index < output.count {
            let character = Character(UnicodeScalar(output[index]))
            if character.isWhitespace {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(character)
            }
            index += 1
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]) else {
            throw TestFailure("\(tool) wrote no binary PPM")
        }
        return (width, height, Array(output[index...]))
    }

    static var decodersInstalled: Bool { decoderTool("pngtopnm") != nil && decoderTool("giftopnm") != nil }

    @Test(.enabled(if: decodersInstalled, "netpbm's pngtopnm and giftopnm are missing (apt-get install netpbm)"))
    func everyFormatDecodesAtTheAnnouncedSize() async throws {
        try await withSandbox { server, _ in
            let token = try await server.openverseToken()
            let page = try await http(.GET, server.openverse([("page_size", "500")]), headers: [("Authorization", "Bearer \(token)")])
            let items = results(try page.json())
            for format in SandboxImageFormat.allCases {
                let item = try #require(items.first { $0["filetype"] as? String == format.rawValue }, "\(format)")
                let full = try await http(.GET, try #require((item["url"] as? String).flatMap(URL.init(string:))))
                #expect(full.status == 200)
                #expect(full.headers.first(name: "content-type") == format.mimeType)
                #expect(full.headers.first(name: "content-encoding") == nil)
                let decoded = try await Self.decode(full.body, as: format)
                #expect(decoded.width == item["width"] as? Int && decoded.height == item["height"] as? Int, "\(format)")
                if !decoded.rgb.isEmpty {
                    #expect(decoded.rgb.count == decoded.width * decoded.height * 3)
                    let colours = Set(stride(from: 0, to: decoded.rgb.count, by: 3).map {
                        Int(decoded.rgb[$0]) << 16 | Int(decoded.rgb[$0 + 1]) << 8 | Int(decoded.rgb[$0 + 2])
                    })
                    #expect(colours.count > 3, "\(format): a picture, not a flat fill")
                }
                let thumbnail = try await http(.GET, try #require((item["thumbnail"] as? String).flatMap(URL.init(string:))))
                #expect(thumbnail.status == 200)
                #expect(thumbnail.headers.first(name: "content-type") == format.mimeType)
                let small = try await Self.decode(thumbnail.body, as: format)
                #expect(max(small.width, small.height) == 600, "\(format)")
            }
            // A full-size URL with the wrong extension is not found.
            let webp = try #require(items.first { $0["filetype"] as? String == "webp" })
            let wrong = try #require((webp["url"] as? String)?.replacingOccurrences(of: ".webp", with: ".png"))
            #expect(try await http(.GET, try #require(URL(string: wrong))).status == 404)
            try await settled(server)
            #expect(server.stats().imageRequests == 9)
            #expect(server.stats().restRequests == 2)
        }
    }

    /// Noise defeats LZW's string table (it fills and clears many times) and
    /// PNG's filters: both must still come back pixel for pixel.
    @Test(.enabled(if: decodersInstalled, "netpbm's pngtopnm and giftopnm are missing (apt-get install netpbm)"))
    func losslessFormatsRoundTripNoise() async throws {
        var random = SplitMix64(seed: 7)
        let (width, height) = (317, 211)
        let noise = (0..<width * height * 3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let png = try await Self.decode(Data(try PNGEncoder.encode(rgb: noise, width: width, height: height)), as: .png)
        #expect(png.width == width && png.height == height)
        #expect(png.rgb == noise)

        let gif = try await Self.decode(Data(GIFEncoder.encode(rgb: noise, width: width, height: height)), as: .gif)
        #expect(gif.width == width && gif.height == height)
        let expected = GIFEncoder.indexes(of: noise).flatMap { index -> [UInt8] in
            let index = Int(index)
            return [UInt8(index / 36 * 51), UInt8(index / 6 % 6 * 51), UInt8(index % 6 * 51)]
        }
        #expect(gif.rgb == expected)
        // One flat colour: the longest LZW strings, and the width changes at every boundary.
        let flat = [UInt8](repeating: 200, count: 500 * 400 * 3)
        let flatGIF = try await Self.decode(Data(GIFEncoder.encode(rgb: flat, width: 500, height: 400)), as: .gif)
        #expect(flatGIF.rgb == [UInt8](repeating: 204, count: 500 * 400 * 3))
    }

    @Test func faultsAndScopesApplyToOpenverseRoutes() async throws {
        try await withSandbox({ configuration in
            configuration.faults.rate = 1
            configuration.faults.scope = .images
            configuration.faults.status = 502
        }) { server, _ in
            let item = try #require(results(try await http(.GET, server.openverse([("q", "beach")])).json()).first)
            #expect(try await http(.GET, try #require((item["thumbnail"] as? String).flatMap(URL.init(string:)))).status == 502)
            #expect(try await http(.GET, try #require((item["url"] as? String).flatMap(URL.init(string:)))).status == 502)
            #expect(server.stats().faultsInjected == 2)
        }
        try await withSandbox({ configuration in
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
            configuration.faults.kind = .apiError
        }) { server, _ in
            let search = try await http(.GET, server.openverse([("q", "beach")]))
            #expect(search.status == 503)
            #expect(try search.json()["detail"] as? String == "Service temporarily unavailable, try again later.")
            let token = try await http(.POST, server.openverse(path: "v1/auth_tokens/token/"),
                                       form: [("client_id", "a"), ("client_secret", "b"), ("grant_type", "client_credentials")])
            #expect(token.status == 503)
            let photo = try #require((0..<100).map(server.catalog.photo(at:)).first { openverseSlug($0.license) != nil })
            let identifier = OpenverseCatalog.identifier(of: photo)
            #expect(try await http(.GET, server.openverse(path: "v1/images/\(identifier)/thumb/")).status == 200)
            try await settled(server)
            #expect(server.stats().restRequests == 2 && server.stats().imageRequests == 1)
        }
    }
}

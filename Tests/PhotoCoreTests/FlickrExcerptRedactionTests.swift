import Foundation
import Networking
import PhotoCore
import Testing
@testable import FlickrService

/// A server's message is quoted cut to a length; the key must be replaced
/// before the cut, or a key the cut goes through shows but for its end.
@Suite struct FlickrExcerptRedactionTests {
    private static let key = "KEYSECRET12345678"

    /// Every piece of the key six characters or longer.
    private static func showsPartOfTheKey(_ text: String) -> Bool {
        let key = Array(Self.key)
        for start in 0...(key.count - 6) {
            for end in (start + 6)...key.count where text.contains(String(key[start..<end])) { return true }
        }
        return false
    }

    private static func message(of body: @escaping @Sendable (Int) -> String, padding: Int) async throws -> String {
        try await LoopbackHTTPServer.with({ _ in .text(body(padding)) }) { server in
            let network = NetworkManager()
            let provider = FlickrProvider(apiKey: key, endpoint: server.restURL, network: network, retryPolicy: .never)
            let shown: String
            do {
                _ = try await provider.search(#require(SearchQuery("kittens")), page: 1, perPage: 10)
                Issue.record("a failure was read as a page")
                shown = ""
            } catch {
                shown = userMessage(for: error) + " " + String(describing: error)
            }
            await network.shutdown()
            return shown
        }
    }

    /// An API error's message (cut at 200), a body that is not JSON (cut at
    /// 80) and an HTML page, with the key at every place near the cut.
    @Test(arguments: [
        ("api", 170...215),
        ("not JSON", 50...100),
        ("HTML", 30...90),
    ])
    func theKeyIsReplacedBeforeTheMessageIsCut(kind: String, paddings: ClosedRange<Int>) async throws {
        let key = Self.key
        let body: @Sendable (Int) -> String = { padding in
            let text = String(repeating: "x", count: padding) + key + " tail"
            switch kind {
            case "api": return #"{"stat":"fail","code":105,"message":""# + text + #""}"#
            case "not JSON": return "{" + text
            default: return "<html><body>" + text + "</body></html>"
            }
        }
        for padding in paddings {
            let shown = try await Self.message(of: body, padding: padding)
            #expect(!Self.showsPartOfTheKey(shown), "\(kind), \(padding) before the key: \(shown)")
        }
    }

    /// White space collapses to one space in a quote, so a key thousands of
    /// bytes into a body still comes into view: wherever the body is cut,
    /// the end of what was kept is dropped back past the key's characters.
    @Test(arguments: ["JSON after line feeds", "HTML after spaces", "JSONP after spaces"])
    func aKeyFarIntoABodyOfWhiteSpaceIsNotShown(kind: String) async throws {
        let key = Self.key
        let body: @Sendable (Int) -> String = { padding in
            switch kind {
            case "JSON after line feeds": return "{" + String(repeating: "\n", count: padding) + key + "}"
            case "HTML after spaces": return "<html>" + String(repeating: " ", count: padding) + key + "</html>"
            default: return "cb(" + String(repeating: " ", count: padding) + key + ")"
            }
        }
        // Around every point a body has been cut at: 512 bytes, the old
        // 371, and the 3,376 kept now.
        for padding in Array(335...375) + Array(490...515) + Array(stride(from: 3_330, through: 3_380, by: 5)) {
            let shown = try await Self.message(of: body, padding: padding)
            #expect(!Self.showsPartOfTheKey(shown), "\(kind), \(padding) before the key: \(shown)")
        }
    }

    /// A key spelled as HTML entities padded with zeros, longer than any
    /// usual spelling, across the point where a long message is cut.
    @Test func aKeySpelledLongerThanUsualIsNotShownInPart() async throws {
        let spelled = Self.key.unicodeScalars.map { "&#x" + String(repeating: "0", count: 20) + String($0.value, radix: 16) + ";" }.joined()
        for padding in stride(from: 1_300, through: 1_800, by: 50) {
            let shown = try await Self.message(of: { padding in
                #"{"stat":"fail","code":100,"message":""# + String(repeating: " ", count: padding) + spelled + #""}"#
            }, padding: padding)
            let decoded = shown.replacingOccurrences(of: "&#x" + String(repeating: "0", count: 20), with: "")
            #expect(!shown.contains(String(repeating: "0", count: 20) + "4b;"), "\(padding): \(shown)")
            #expect(!decoded.contains("4b;45;59;53"), "\(padding): \(shown)")
        }
    }
}

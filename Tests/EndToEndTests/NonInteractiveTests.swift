import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// stdin a pipe: plain lines in, plain text out.
    @Suite("Plain mode")
    struct PlainMode {
        @Test func pipedQueryAndEmptyLinePrintPagesOneAndTwoWithoutEscapes() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await app.run([], input: "kittens\n\n")
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)

                #expect(result.status == .exited(0), "\(result.transcript)")
                #expect(!result.standardOutput.contains(0x1B), "ESC on stdout: \(result.transcript)")
                #expect(!result.standardError.contains(0x1B), "ESC on stderr: \(result.transcript)")
                let headers = resultsHeaders(in: result.outputText).filter { $0.total == expected.count }
                #expect(headers.map(\.page) == [1, 2], "kittens headers: \(headers)\n\(result.transcript)")
                let lines = result.outputText.split(separator: "\n").map(String.init)
                for number in [1, 30, 31, 60] {
                    let title = sandbox.catalog.photo(at: expected[number - 1]).title
                    #expect(lines.contains { lineShowsLabel($0, number: number, title: title) },
                            "result \(number) (\(title.debugDescription)) missing\n\(result.transcript)")
                }
            }
        }
    }

    /// `flickr search QUERY --json`, checked against the sandbox's own catalog.
    @Suite("search --json")
    struct SearchJSON {
        struct Line: Decodable {
            var page: Int
            var index: Int
            var id: String
            var title: String
            var owner: String
            var thumbnail_url: String
            var image_url: String
        }

        @Test func linesMatchTheCatalogInRelevanceOrder() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await app.run(["search", "kittens", "--json", "--pages", "2", "--per-page", "50"])
                #expect(result.status == .exited(0), "\(result.transcript)")

                let rawLines = result.outputText.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(rawLines.last == "", "output ends with a newline")
                var lines: [Line] = []
                for raw in rawLines where !raw.isEmpty {
                    do {
                        lines.append(try JSONDecoder().decode(Line.self, from: Data(raw.utf8)))
                    } catch {
                        Issue.record("not a contract JSON line (\(error)): \(raw)")
                    }
                }
                let catalog = sandbox.catalog
                let expected = catalog.search(text: "kittens", sort: .relevance).prefix(100).map { catalog.photo(at: $0) }
                #expect(lines.count == 100)
                #expect(Set(lines.map(\.id)) == Set(expected.map(\.id)), "the same photos as the catalog's first 100")
                #expect(lines.map(\.id) == expected.map(\.id), "in the catalog's relevance order")
                #expect(lines.map(\.index) == Array(1...lines.count))
                #expect(lines.map(\.page) == Array(repeating: 1, count: 50) + Array(repeating: 2, count: 50))

                let base = sandbox.baseURL.absoluteString
                for (line, photo) in zip(lines, expected) where line.id == photo.id {
                    #expect(line.title == photo.title, "title of \(photo.id)")
                    #expect(line.owner == photo.owner, "owner of \(photo.id)")
                    #expect(line.thumbnail_url == base + photo.imagePath(.q), "thumbnail of \(photo.id)")
                    #expect([base + photo.imagePath(.l), base + photo.imagePath(.z)].contains(line.image_url),
                            "image of \(photo.id): \(line.image_url)")
                }
            }
        }
    }
}

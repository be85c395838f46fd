import PhotoCore
import Downloads
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// One reading of "a person" and "an album" for the command line
/// (`download`, `user`, `album`) and the prompt (`/user`, `/album`).
@MainActor
@Suite struct CollectionChoiceTests {
    private func makeViewModel(_ provider: any PhotoProvider) -> FlickrViewModel {
        FlickrViewModel(provider: provider, pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), perPage: 10)
    }

    @Test func downloadWordsAndNamesMakeOneSource() throws {
        #expect(try DownloadSource(words: [], user: nil, album: "7215") == .collection(.album("7215")))
        #expect(try DownloadSource(words: [], user: "ana", album: nil) == .collection(.user("ana")))
        let within = try DownloadSource(words: ["tiles", "license:cc0"], user: "ana", album: nil)
        guard case .search(let query) = within else {
            Issue.record("words with --user search that person's photos: \(within)")
            return
        }
        #expect(query.text == "tiles")
        #expect(query.filters.user == "ana")
        #expect(query.filters.licenses.isEmpty == false)
        #expect(try DownloadSource(words: ["kittens"], user: nil, album: nil) == .search(try #require(try SearchQuery.parse("kittens"))))
    }

    @Test(arguments: [
        ([String](), "ana", "7215", "Give --user or --album, not both."),
        (["kittens"], nil, "7215", "An album is downloaded whole: drop the words and filters, or search with user:NAME instead."),
        ([], nil, "  ", "Name an album: its link or its id."),
        ([], " ", nil, "Name a person: a username, path alias, NSID or profile URL."),
        ([], nil, nil, "Give some words to search for."),
        (["license:nonsense"], nil, nil, nil),
    ] as [([String], String?, String?, String?)])
    func aMistakeIsRefusedInASentence(words: [String], user: String?, album: String?, message: String?) {
        #expect {
            _ = try DownloadSource(words: words, user: user, album: album)
        } throws: { error in
            guard let error = error as? QueryError else { return false }
            return message.map { error.description == $0 } ?? !error.description.isEmpty
        }
    }

    @Test func aBareAlbumIdAtThePromptBelongsToThePersonShown() async throws {
        let provider = CollectionProvider(titles: ["A", "B", "C"])
        let viewModel = makeViewModel(provider)
        viewModel.showPerson("ana")
        try await eventually("the photostream") { viewModel.pages.value.count == 1 }
        viewModel.openAlbum("72157719")
        try await eventually("the album") {
            if case .collection(let shown)? = viewModel.query.value { return shown == provider.album }
            return false
        }
        let resolved = try #require(provider.requests.first { $0.hasPrefix("resolve") })
        #expect(resolved.contains("99@N00"), "the owner goes with the id: \(resolved)")
    }

    @Test func whatIsNotAnAlbumIsRefusedAtThePromptWithTheCommandLinesSentence() async throws {
        let provider = CollectionProvider(titles: ["A"])
        let viewModel = makeViewModel(provider)
        viewModel.openAlbum("not an id!")
        try await eventually("the refusal") { viewModel.notice.value != nil }
        #expect(viewModel.notice.value == .error("“not an id!” is neither an album id (digits) nor a link to an album."))
        #expect(provider.requests.isEmpty, "nothing was asked: \(provider.requests)")
    }

    @Test func aServiceWithoutPeopleSaysSoAtThePromptBeforeAnyRequest() async throws {
        let provider = InMemoryProvider(count: 3)
        let viewModel = makeViewModel(provider)
        viewModel.showPerson("ana")
        try await eventually("the refusal") { viewModel.notice.value != nil }
        #expect(viewModel.notice.value == .error("Flickr has no photostreams, albums, galleries or pools."))
        #expect(provider.calls.isEmpty)
    }
}

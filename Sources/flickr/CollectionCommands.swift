import ArgumentParser
import PhotoCore
import Downloads
import FlickrViewModels
import Foundation
import Platform
import TerminalUI

/// `flickr user NAME`: a person's public photos, printed like `search`.
struct PhotostreamCommand: CollectionListingCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Print a person's public photos, newest first.",
        discussion: """
            NAME is a username, path alias, NSID or profile URL. Output as `flickr search`; with \
            --json the first line is {"collection":{…}} (kind, id, title, owner, owner_name, url), \
            then one photo per line. Services without photostreams say what they have instead.
            """)

    @Argument(help: "Username, path alias, NSID or profile URL.")
    var name: String

    @OptionGroup var options: CollectionListingOptions
    var choice: CollectionChoice { .user(name) }
}

/// `flickr album URL|ID`: an album's photos, printed like `search`.
struct AlbumCommand: CollectionListingCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Print the photos of an album.",
        discussion: """
            The album's link (flickr.com/photos/USER/albums/ID, /sets/ID) or its id; a gallery's or a \
            group pool's link lists its photos the same way. Output as `flickr search`; with --json the first line is {"collection":{…}} (kind, id, title, \
            owner, owner_name, url), then one photo per line.
            """)

    @Argument(help: "The album's link or id.")
    var album: String

    @OptionGroup var options: CollectionListingOptions
    var choice: CollectionChoice { .album(album) }
}

/// `user` and `album`: one photostream or album, listed like a search.
protocol CollectionListingCommand: AsyncParsableCommand {
    var choice: CollectionChoice { get }
    var options: CollectionListingOptions { get }
}

extension CollectionListingCommand {
    func validate() throws {
        try validated { () throws(QueryError) in try choice.check() }
    }

    func run() async throws {
        try await options.listing.print(choice, provider: options.provider)
    }
}

/// The options of `search`, for `user` and `album`.
struct CollectionListingOptions: ParsableArguments {
    @OptionGroup var listing: ListingOptions
    @OptionGroup var provider: ProviderOptions
}

extension ListingOptions {
    /// Finds the photostream or album, says what it is (a line of text, or
    /// the collection's JSON line), then prints its photos.
    func print(_ choice: CollectionChoice, provider options: ProviderOptions) async throws {
        try await print(provider: options) { provider in
            let collection = try await choice.collection(at: provider)
            let line = json
                ? CollectionFacts(collection, pageURL: provider.capabilities.collections.available?.pageURL(for: collection)).jsonLine
                : TextSanitizer.sanitize(collection.description)
            Platform.writeAll((line + "\n").utf8, to: Platform.standardOutput)
            return .collection(collection)
        }
    }
}

import ArgumentParser
import PhotoCore
import FlickrViewModels
import Foundation
import Services
import TerminalUI

/// `flickr search QUERY`: prints pages of results, as text or JSON Lines.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search photos and print the results.",
        discussion: """
            With --json, writes one JSON object per photo and line: provider, page, index \
            (1-based over the whole output), id, title, owner (NSID; Shutterstock: contributor \
            id), owner_name, thumbnail_url and image_url, in the provider's order; license, \
            license_url, creator and attribution where the provider knows them.
            \(ProviderOptions.registry.descriptors.map { "  \($0.service.name): \($0.imageSizes)." }.joined(separator: "\n"))
            """)

    @Argument(help: "Words that must all match; -word excludes; filters such as license:cc0, sort:newest, taken:2020..2022, user:NAME (README lists them all).")
    var query: [String]

    @OptionGroup var listing: ListingOptions
    @OptionGroup var provider: ProviderOptions

    func validate() throws {
        _ = try validated { () throws(QueryError) in try SearchQuery.required(words: query) }
    }

    func run() async throws {
        let search = try validated { () throws(QueryError) in try SearchQuery.required(words: query) }
        try await listing.print(.search(search), provider: provider)
    }
}

/// `flickr recent`: prints pages of the most recent uploads.
struct RecentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recent",
        abstract: "Print the most recent photos, newest first as each service has them.")

    @OptionGroup var listing: ListingOptions
    @OptionGroup var provider: ProviderOptions

    func run() async throws {
        try await listing.print(.recent, provider: provider)
    }
}

/// `flickr info PHOTO_ID`: what the service tells about one photo.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print one photo's details.",
        discussion: """
            Title, owner, date taken, views, licence, tags, description (HTML removed) and the \
            photo's page. With --json, one object: id, title, description, tags, date_taken, \
            license, owner, owner_name, url, views.
            """)

    @Argument(help: ArgumentHelp(
        "The photo's id, as in search results.",
        discussion: ProviderOptions.registry.descriptors.map { "\($0.service.name): \($0.photoID.wording)." }.joined(separator: " ")))
    var photoID: String

    @Flag(help: "Write one JSON object.")
    var json = false

    @OptionGroup var provider: ProviderOptions

    func validate() throws {
        _ = try validated { () throws(ServiceSetupError) in try provider.choice.photoID(photoID, in: ProviderOptions.registry) }
    }

    func run() async throws {
        try await provider.withScriptConnection { connection in
            ListingPrinter.printFacts(try await PhotoFacts.lookUp(id: photoID, from: connection.provider), json: json)
        }
    }
}

/// Paging and output format shared by `search` and `recent`.
struct ListingOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "First page to print.")
    var page: Int = 1

    @Option(parsing: .unconditional, help: "How many pages to print.")
    var pages: Int = 1

    @Flag(help: "Write JSON Lines, one photo per line.")
    var json = false

    func validate() throws {
        try NumericRange.check("--page", page, atLeast: 1)
        try NumericRange.check("--pages", pages, atLeast: 1)
    }

    /// Fetches the pages and prints them; stops at the last page the provider serves.
    func print(_ query: ResultQuery, provider options: ProviderOptions) async throws {
        try await print(provider: options) { _ in query }
    }

    /// The same, for what `choose` picks once connected (a person's photos
    /// or an album, which the service is asked for first).
    func print(
        provider options: ProviderOptions, choosing choose: (any PhotoProvider) async throws -> ResultQuery
    ) async throws {
        try await options.withScriptConnection { connection in
            let job = ListingJob(
                query: try await choose(connection.provider), firstPage: page, pages: pages,
                perPage: connection.perPage(for: connection.provider))
            try await job.run(provider: connection.provider, into: ListingPrinter(json: json))
        }
    }
}

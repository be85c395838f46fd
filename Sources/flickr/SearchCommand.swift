import ArgumentParser
import FlickrViewModels
import Foundation
import TerminalUI

/// `flickr search QUERY`: prints pages of results, as text or JSON Lines.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search photos and print the results.",
        discussion: """
            With --json, writes one JSON object per photo and line: page, index (1-based over \
            the whole output), id, title, owner (NSID), owner_name, thumbnail_url (150 px \
            square, q) and image_url (1024 px, b; or 640 px, z), in the provider's order.
            """)

    @Argument(help: "Words that must all match; -word excludes.")
    var query: [String]

    @OptionGroup var listing: ListingOptions
    @OptionGroup var provider: ProviderOptions

    func validate() throws {
        guard !query.joined().trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("Give some words to search for.")
        }
    }

    func run() async throws {
        try await listing.print(.search(query.joined(separator: " ")), provider: provider)
    }
}

/// `flickr recent`: prints pages of the most recent uploads.
struct RecentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recent",
        abstract: "Print the most recent photos (flickr.photos.getRecent).")

    @OptionGroup var listing: ListingOptions
    @OptionGroup var provider: ProviderOptions

    func run() async throws {
        try await listing.print(.recent, provider: provider)
    }
}

/// Paging and output format shared by `search` and `recent`.
struct ListingOptions: ParsableArguments {
    @Option(help: "First page to print.")
    var page: Int = 1

    @Option(help: "How many pages to print.")
    var pages: Int = 1

    @Flag(help: "Write JSON Lines, one photo per line.")
    var json = false

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be 1 or more (got \(page)).") }
        guard pages >= 1 else { throw ValidationError("--pages must be 1 or more (got \(pages)).") }
    }

    /// Fetches the pages and prints them; stops at the last page the provider serves.
    func print(_ query: ResultQuery, provider options: ProviderOptions) async throws {
        let connection = try await options.connect()
        let job = ListingJob(query: query, firstPage: page, pages: pages, perPage: options.perPage)
        do {
            try await job.run(provider: connection.provider, into: ListingPrinter(json: json))
        } catch {
            await connection.close()
            throw CommandFailure(message: error.message)
        }
        await connection.close()
    }
}

/// An error already worded for a person: printed as `error: …`, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

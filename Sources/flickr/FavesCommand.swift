import ArgumentParser
import FlickrViewModels
import Foundation

/// `flickr faves [NAME]`: favourites, printed like `search`.
struct FavesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faves",
        abstract: "Print a person's favourite photos, or yours.",
        discussion: """
            Without NAME (or with `me`), your own favourites, non-public ones included: this needs a \
            sign-in (`flickr login`). With NAME (a username, path alias, NSID or profile URL), their \
            public favourites. Output as `flickr search`.
            """)

    @Argument(help: "Username, path alias, NSID or profile URL; none for yours.")
    var name: String?

    @OptionGroup var listing: ListingOptions
    @OptionGroup var provider: ProviderOptions

    func run() async throws {
        try await listing.print(provider: provider) { service in try await ResultQuery.favourites(named: name, at: service) }
    }
}

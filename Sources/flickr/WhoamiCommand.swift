import ArgumentParser
import FlickrService
import Services
import Foundation

/// `flickr whoami`: who the stored sign-in belongs to, asked of Flickr (`flickr.test.login`, signed).
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show who is signed in to Flickr.",
        discussion: "Asks Flickr (flickr.test.login, signed with the stored token), so an expired or revoked sign-in says so.")

    @OptionGroup var account: FlickrAccountOptions

    func run() async throws {
        try await account.withSession { session in
            print("Signed in to \(session.serverName) as \(try await session.signedIn().signedInAs).")
        }
    }
}

import ArgumentParser
import FlickrService
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
            guard let signedIn = try session.store.account() else { throw FlickrAccountError.notSignedIn }
            let user = try await session.oauth.testLogin(signedIn)
            var shown = signedIn
            shown.userNSID = user.nsid
            if !user.username.isEmpty { shown.username = user.username }
            print("Signed in to \(session.serverName) as \(shown.signedInAs).")
        }
    }
}

import ArgumentParser
import FlickrService
import Foundation

/// `flickr logout`: deletes the stored sign-in (and a pending one).
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out of Flickr.",
        discussion: "Deletes the access token kept in $XDG_CONFIG_HOME/flickr/. To revoke the app's access too, remove it at flickr.com/services/auth/list.gne.")

    // Taken for symmetry with login: scripts pass the same options to every step.
    @OptionGroup var account: FlickrAccountOptions

    func run() async throws {
        let store = FlickrAccountStore(environment: ProcessInfo.processInfo.environment)
        try await worded {
            let removed = try store.removeAccount()
            try store.removePending()
            print(removed ? "Signed out of Flickr; the stored token is deleted." : "Nobody was signed in to Flickr.")
        }
    }
}

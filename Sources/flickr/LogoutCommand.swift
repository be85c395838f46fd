import ArgumentParser
import FlickrService
import FlickrViewModels
import Foundation
import PhotoCore

/// `flickr logout`: deletes the stored sign-in (and a pending one).
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out of Flickr.",
        discussion: "Deletes the access token kept in $XDG_CONFIG_HOME/flickr/ and the last session when it was fetched signed in. To revoke the app's access too, remove it at flickr.com/services/auth/list.gne.")

    // Taken for symmetry with login: scripts pass the same options to every step.
    @OptionGroup var account: FlickrAccountOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let store = FlickrAccountStore(environment: environment)
        let session = SessionStore(file: AppPaths(environment: environment).sessionFile(for: FlickrProvider.service))
        try await worded {
            let removed = try store.removeAccount()
            try store.removePending()
            // Pages fetched signed in may hold the person's non-public photos.
            try session.forgetSignedListings()
            print(removed ? "Signed out of Flickr; the stored token is deleted." : "Nobody was signed in to Flickr.")
        }
    }
}

import Dispatch
import PhotoCore
import Foundation

/// Saves the shown pages for the next launch and reads them back, off the
/// main thread, reporting a file that cannot be written once.
@MainActor
final class SessionPersistence {
    private let store: SessionStore
    private let providerName: String
    private let queue = DispatchQueue(label: "flickr.session-save")
    /// Told once, on the main actor, when saving fails (path and reason).
    private let onSaveFailure: @MainActor (String) -> Void
    private var reportedFailure = false

    /// Where this run's embedded sandbox serves images, when it stands in
    /// for the service: a session it saved points at the sandbox of its run.
    private let sandboxOrigin: URL?

    init(
        store: SessionStore, providerName: String, sandboxOrigin: URL? = nil,
        onSaveFailure: @escaping @MainActor (String) -> Void
    ) {
        self.store = store
        self.providerName = providerName
        self.sandboxOrigin = sandboxOrigin
        self.onSaveFailure = onSaveFailure
    }

    /// What a saved session brings back: its query and pages, the result
    /// number of its first photo, and the page size its pages were asked
    /// with (the next page must be asked with the same one).
    struct Restored {
        var query: ResultQuery
        var pages: [PhotoPage]
        var firstNumber: Int
        var perPage: Int
    }

    /// The saved query and pages of this provider, nil when there are none
    /// or when they were fetched signed in as someone other than
    /// `signedInAs` (who is signed in now): a signed listing is shown only
    /// to its sign-in, and its next page is asked signed too.
    func restore(signedInAs: String?) -> Result<Restored?, SessionStore.LoadError> {
        switch store.load() {
        case .failure(let error):
            return .failure(error)
        case .success(nil):
            return .success(nil)
        case .success(let snapshot?):
            guard snapshot.provider == providerName, !snapshot.pages.isEmpty, snapshot.signedInAs == signedInAs else {
                return .success(nil)
            }
            // Numbers from a file are outside input: clamped before use.
            let perPage = min(max(snapshot.pages[snapshot.pages.count - 1].perPage, 1), 500)
            let firstNumber = min(max(snapshot.firstNumber ?? 1, 1), 1 << 31)
            return .success(Restored(
                query: snapshot.query, pages: snapshot.pages.map { rebased($0, savedBy: snapshot.provider) },
                firstNumber: firstNumber, perPage: perPage))
        }
    }

    /// Saves `pages` of `query` in the background; `signedInAs`: who was
    /// signed in (the pages may hold their non-public photos).
    func save(_ query: ResultQuery, pages: [ResultPage], perPage: Int, signedInAs: String?) {
        let loaded = pages.filter { !$0.cells.isEmpty }
        guard !loaded.isEmpty else { return }
        let snapshot = SessionSnapshot(
            provider: providerName, query: query,
            pages: loaded.map { page in
                PhotoPage(
                    page: page.number, pages: page.pages, perPage: perPage, total: page.total,
                    photos: page.cells.map(\.photo))
            },
            firstNumber: loaded[0].cells[0].number, signedInAs: signedInAs)
        let store = self.store
        queue.async { [weak self] in
            do {
                try store.save(snapshot)
            } catch {
                let message = "Could not save the session to \(store.file.path): \(userMessage(for: error))"
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { self?.reportOnce(message) }
                }
            }
        }
    }

    /// Waits for a save under way (call before exiting).
    func flush() {
        queue.sync {}
    }

    private func reportOnce(_ message: String) {
        guard !reportedFailure else { return }
        reportedFailure = true
        onSaveFailure(message)
    }

    /// The embedded sandbox may listen on another port than last time, so
    /// image URLs it handed out are rebuilt from the photo ids against this
    /// run's server.
    private func rebased(_ page: PhotoPage, savedBy provider: String) -> PhotoPage {
        guard provider.hasSuffix("(sandbox)") else { return page }
        var page = page
        // Photos with provider keys (Flickr's) rebuild their URLs from them;
        // other services' move to this run's sandbox (it may have had to
        // take another port).
        for index in page.photos.indices {
            if !page.photos[index].providerKeys.isEmpty {
                page.photos[index].images = [:]
            } else if let sandboxOrigin {
                page.photos[index].renditions = page.photos[index].renditions.map { rendition in
                    var moved = rendition
                    moved.url = Self.moving(rendition.url, to: sandboxOrigin)
                    return moved
                }
            }
        }
        return page
    }

    /// `url` on `origin`'s scheme, host and port when it was served on this
    /// machine (the sandbox of an earlier run); any other URL as it is.
    static func moving(_ url: URL, to origin: URL) -> URL {
        guard let host = url.host, ["127.0.0.1", "localhost", "::1"].contains(host),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = origin.scheme
        components.host = origin.host
        components.port = origin.port
        return components.url ?? url
    }
}

import Binding
import PhotoCore

/// Where a `FlickrViewModel` keeps the shown results for the next launch.
extension FlickrViewModel {
    func makeSession(_ setup: ServiceSetup) -> SessionPersistence? {
        setup.sessionStore.map { store in
            SessionPersistence(store: store, providerName: setup.provider.displayName, sandboxOrigin: setup.sandboxOrigin) {
                [weak self] message in
                self?.noticeSource.value = .warning(message)
            }
        }
    }

    func saveSession() {
        guard let query = query.value else { return }
        session?.save(query, pages: pages.value, perPage: pageSize, signedInAs: signedInAs)
    }

    /// Who the provider calls the service as now, nil when nobody (or the
    /// service has no accounts).
    var signedInAs: String? {
        provider.capabilities.favourites.available?.account.signedInPerson?.id
    }
}

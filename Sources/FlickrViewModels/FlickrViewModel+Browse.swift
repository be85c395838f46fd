import Binding
import PhotoCore
import Downloads
import Foundation
import ImagePipeline

/// Browsing what a person published: their photostream (`/user`), their
/// albums (`/albums`, `/album`), and any link of the service pasted at the
/// prompt. Each asks the service who or what a name is first, then pages
/// the photos like a search.
extension FlickrViewModel {
    /// `/user NAME`: a person's public photos, newest first.
    public func showPerson(_ name: String) {
        lookUp("“\(name)”") { provider in
            .collection(try await CollectionChoice.user(name).collection(at: provider))
        }
    }

    /// `/albums NAME`; without a name, the albums of the person whose
    /// photos or album are shown.
    public func listAlbums(of name: String?) {
        guard let name = name ?? shownPerson?.id else {
            noticeSource.value = .info("Use /albums NAME (a username, path alias or profile link), or /user NAME first.")
            return
        }
        lookUp("the albums of “\(name)”") { provider in
            let collections = try provider.capabilities.collections.required()
            let person = try await collections.person(named: name)
            return .albums(person, try await collections.albums(of: person, page: 1, perPage: 500))
        }
    }

    /// `/album N` (row N of the last `/albums`), `/album ID` or `/album URL`.
    public func openAlbum(_ argument: String) {
        if let number = Int(argument), number >= 1, number <= 9_999 {
            guard let listing = albums.value else {
                noticeSource.value = .info("No albums listed: /albums NAME lists a person's albums, then /album N opens one.")
                return
            }
            guard number <= listing.page.albums.count else {
                noticeSource.value = .error("No album \(number): the list has \(listing.page.albums.count).")
                return
            }
            start(.collection(listing.page.albums[number - 1].collection))
            return
        }
        // A bare id is taken to be an album of the person shown.
        let choice = CollectionChoice.album(argument, owner: shownPerson?.id)
        lookUp("the album") { provider in .collection(try await choice.collection(at: provider)) }
    }

    /// What a line of text is when it is a link of this service; a search
    /// calls it first.
    func followIfLink(_ text: String) -> Bool {
        // A provider without links of its own reads none.
        switch provider.capabilities.links.available?.readLink(text.trimmingCharacters(in: .whitespaces)) ?? .notALink {
        case .notALink:
            guard let sentence = foreignLinkSentence(text) else { return false }
            noticeSource.value = .error(sentence)
        case .unsupported(let sentence):
            noticeSource.value = .error(sentence)
        case .link(let link):
            follow(link)
        }
        return true
    }

    /// When `text` is one web link this service does not read, the sentence
    /// saying which links it reads: searching a link's words finds nothing
    /// anyone meant.
    func foreignLinkSentence(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.contains(" "), let url = URL(string: trimmed),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        // The provider says which of its links it opens.
        return provider.capabilities.links.available?.foreignLinkSentence(host: host)
            ?? "\(provider.displayName) opens no links: type words to search for."
    }

    /// Opens what `link` points at: a photo large, or a collection's photos.
    private func follow(_ link: ProviderLink) {
        lookUp("the link") { provider in
            switch try await provider.capabilities.links.required().resolve(link) {
            case .photo(let photo): .photo(photo)
            case .collection(let collection): .collection(collection)
            }
        }
    }

    /// Asks the service who or what something is (`what` says it, for the
    /// status line), then shows it. The results shown stay until it is
    /// found; a failure is a notice. `/cancel` and a new query stop it.
    func lookUp(_ what: String, _ work: @escaping @Sendable (any PhotoProvider) async throws -> LookupResult) {
        lookupTask?.cancel()
        pageTask?.cancel()
        pageTask = nil
        generation += 1
        let expected = generation
        activitySource.value = .lookingUp(what)
        let provider = self.provider
        lookupTask = Task { [weak self] in
            let outcome: Result<LookupResult, any Error>
            do {
                outcome = .success(try await work(provider))
            } catch {
                outcome = .failure(error)
            }
            guard let self, self.generation == expected else { return }
            self.lookupTask = nil
            self.activitySource.value = .idle
            switch outcome {
            case .success(.collection(let collection)):
                self.start(.collection(collection))
            case .success(.query(let query)):
                self.start(query)
            case .success(.photo(let photo)):
                // Not one of the results: number 0, so it is shown unnumbered.
                let cell = self.factory.cell(0, photo)
                self.linkedPhotoSource.value = self.openDetail(of: cell)
            case .success(.albums(let person, let page)):
                self.showAlbums(page, of: person)
            case .failure(let error):
                if error is CancellationError { return }
                self.noticeSource.value = .error(userMessage(for: error))
            }
        }
    }

    /// Publishes a person's albums, one row each with its cover loading.
    private func showAlbums(_ page: AlbumPage, of person: Person) {
        if let shown = albumsSource.value { factory.reset(shown.cells, keeping: nil) }
        let cells = page.albums.enumerated().map { offset, album in
            var row = album.cover ?? Photo(id: album.id, owner: person.id, ownerName: person.displayName, title: "")
            row.title = album.title + " · " + AlbumListing.counts(of: album)
            row.ownerName = person.displayName
            row.isVideo = false
            return factory.cell(offset + 1, row, page: provider.capabilities.collections.available?.pageURL(for: album.collection))
        }
        for cell in cells { cell.load(priority: .high) }
        albumsSource.value = AlbumListing(source: provider.displayName, person: person, page: page, cells: cells)
        if page.albums.isEmpty {
            noticeSource.value = .info("\(person.displayName) has no public albums.")
        }
    }

    /// The person whose photos or album are shown, if any.
    private var shownPerson: Person? {
        guard case .collection(let collection) = query.value else { return albums.value?.person }
        return collection.owner
    }
}

/// What a lookup found, handed back to the main actor.
enum LookupResult: Sendable {
    case collection(PhotoCollection)
    case photo(Photo)
    case albums(Person, AlbumPage)
    /// Results to show, found by asking (favourites, once the person is known).
    case query(ResultQuery)
}

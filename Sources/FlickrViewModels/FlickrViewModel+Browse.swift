import Binding
import FlickrKit
import Foundation

/// Browsing what a person published: their photostream (`/user`), their
/// albums (`/albums`, `/album`), and any link of the service pasted at the
/// prompt. Each asks the service who or what a name is first, then pages
/// the photos like a search.
extension FlickrViewModel {
    /// `/user NAME`: a person's public photos, newest first.
    public func showPerson(_ name: String) {
        lookUp("“\(name)”") { provider in
            .collection(.photostream(of: try await provider.person(named: name)))
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
            let person = try await provider.person(named: name)
            return .albums(person, try await provider.albums(of: person, page: 1, perPage: 500))
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
        switch provider.readLink(argument) {
        case .link(let link):
            follow(link)
        case .unsupported(let sentence):
            noticeSource.value = .error(sentence)
        case .notALink:
            follow(.album(id: argument, owner: shownPerson?.id))
        }
    }

    /// What a line of text is when it is a link of this service; a search
    /// calls it first.
    func followIfLink(_ text: String) -> Bool {
        switch provider.readLink(text.trimmingCharacters(in: .whitespaces)) {
        case .notALink:
            return false
        case .unsupported(let sentence):
            noticeSource.value = .error(sentence)
        case .link(let link):
            follow(link)
        }
        return true
    }

    /// Opens what `link` points at: a photo large, or a collection's photos.
    private func follow(_ link: ProviderLink) {
        lookUp("the link") { provider in
            switch try await provider.resolve(link) {
            case .photo(let photo): .photo(photo)
            case .collection(let collection): .collection(collection)
            }
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
}

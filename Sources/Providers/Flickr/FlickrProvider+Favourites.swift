import PhotoCore
import Foundation
import Networking

/// Favourites: the signed-in person's own (`flickr.favorites.getList`,
/// signed, non-public ones included), anyone's public ones
/// (`flickr.favorites.getPublicList`), and adding or removing one
/// (`flickr.favorites.add|remove`, which need a sign-in that may write).
extension FlickrProvider {
    public var account: any AccountSignIn { self }

    public func favourites(of person: Person?, page: Int, perPage: Int) async throws(FlickrError) -> PhotoPage {
        try Self.validate(page: page, perPage: perPage)
        var parameters = [
            ("extras", Self.collectionExtras.joined(separator: ",")), ("page", String(page)), ("per_page", String(perPage)),
        ]
        let method: String
        if let person, person.id != signIn.person?.id {
            method = "flickr.favorites.getPublicList"
            parameters.append(("user_id", person.id))
        } else {
            guard signIn.isSignedIn else { throw .invalidRequest(signIn.notSignedInSentence) }
            method = "flickr.favorites.getList"
        }
        let url = try requestURL(method: method, parameters: parameters)
        do throws(FlickrError) {
            return try await fetchPage(url, page: page)
        } catch .api(code: 1, _) {
            throw .notFound(Self.noSuchUser(person?.displayName ?? "me"))
        }
    }

    public func addFavourite(_ photo: Photo) async throws(FlickrError) {
        try await changeFavourite(photo, method: "flickr.favorites.add", refusals: [
            1: "Flickr has no photo “\(Self.shortTitle(photo))” that you can see.",
            2: "“\(Self.shortTitle(photo))” is already one of your favourites.",
            3: "Flickr does not let you fave your own photo “\(Self.shortTitle(photo))”.",
        ])
    }

    public func removeFavourite(_ photo: Photo) async throws(FlickrError) {
        try await changeFavourite(photo, method: "flickr.favorites.remove", refusals: [
            1: "“\(Self.shortTitle(photo))” is not one of your favourites.",
            2: "“\(Self.shortTitle(photo))” is not one of your favourites.",
        ])
    }

    /// One write, POSTed and signed; Flickr's refusals become sentences.
    private func changeFavourite(_ photo: Photo, method: String, refusals: [Int: String]) async throws(FlickrError) {
        guard signIn.isSignedIn else { throw .invalidRequest(signIn.notSignedInSentence) }
        let url = try requestURL(method: method, parameters: [("photo_id", photo.id)])
        do throws(FlickrError) {
            try await call(url, post: true) { data throws(FlickrError) in try FlickrResponseDecoder.checkSuccess(data) }
        } catch .api(let code, let message) {
            if let sentence = refusals[code] { throw .notFound(sentence) }
            throw .api(code: code, message: message)
        }
    }

    /// A title to name the photo by in a sentence (its id when untitled).
    static func shortTitle(_ photo: Photo) -> String {
        ResponseExcerpt.make(photo.title.isEmpty ? photo.id : photo.title, limit: 40)
    }
}

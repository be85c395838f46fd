import PhotoCore
import Foundation

/// One photo of `flickr search`/`recent` output, as the printer shows it.
public struct ListedPhoto: Sendable, Equatable {
    /// The service's id: `flickr`, `shutterstock`, `openverse`.
    public var provider: String
    public var page: Int
    /// 1-based over the whole output.
    public var index: Int
    public var id: String
    public var title: String
    public var owner: String
    public var ownerName: String?
    public var dateTaken: String?
    /// The size the grid uses, and the size `/open` uses.
    public var thumbnailURL: String?
    public var imageURL: String?
    /// The licence's short name and deed, and Flickr's id for it.
    public var license: String?
    public var licenseURL: String?
    public var licenseID: Int?
    public var creator: String?
    /// The credit line: the service's own, or TASL.
    public var attribution: String?
    /// `public`, `friends`, `family`, `friends-family` or `private`, where the service says.
    public var visibility: String?
}

/// Hears what a listing produced; the terminal layer prints it.
public protocol ListingSink {
    func header(page: Int, pages: Int, total: Int)
    func photo(_ photo: ListedPhoto)
    /// A remark about the listing itself (where it stopped).
    func note(_ text: String)
}

/// `flickr search` and `recent`: fetches `pages` pages from `firstPage` on,
/// stopping at the last page the provider serves, and hands every photo to
/// the sink in the provider's order.
public struct ListingJob: Sendable {
    public var query: ResultQuery
    public var firstPage: Int
    public var pages: Int
    public var perPage: Int

    public init(query: ResultQuery, firstPage: Int, pages: Int, perPage: Int) {
        self.query = query
        self.firstPage = firstPage
        self.pages = pages
        self.perPage = perPage
    }

    /// - Throws: the provider's error, worded for a person, as `ListingError`.
    public func run(provider: any PhotoProvider, thumbnailSize: PhotoSize = .square150, into sink: some ListingSink) async throws(ListingError) {
        // The last page asked for; `pages` may be as large as Int.max.
        let (sum, overflow) = firstPage.addingReportingOverflow(max(pages, 1) - 1)
        let lastWanted = overflow ? Int.max : sum
        // Past the provider's cap Flickr answers with page 1 again: refuse
        // rather than print those photos under the wrong page number.
        let lastServed = query.lastServedPage(pages: Int.max, perPage: perPage, from: provider)
        if firstPage > lastServed, let cap = provider.maxResults {
            throw ListingError(message: "\(provider.displayName) serves only the first \(cap) results of a query: "
                + "at \(perPage) per page that is pages 1–\(lastServed), so page \(firstPage) cannot be listed.")
        }
        var index = 0
        // Pages overlap when the results shift between requests (Openverse's
        // do): a photo already printed is not printed again.
        var listed: Set<String> = []
        var number = firstPage
        while number <= lastWanted {
            let result: PhotoPage
            do {
                result = try await query.page(number, perPage: perPage, from: provider)
            } catch {
                throw ListingError(message: userMessage(for: error))
            }
            // A service asked past its last page may answer with another
            // page (the sandbox its last, Flickr its first): refused rather
            // than printed under a number it is not.
            if number == firstPage, firstPage > max(result.pages, 1) {
                throw ListingError(message: "Page \(firstPage) is past the last page: there are \(result.pages) pages "
                    + "of \(result.total) results, so ask for --page 1–\(max(result.pages, 1)).")
            }
            if number == firstPage { sink.header(page: result.page, pages: result.pages, total: result.total) }
            for photo in result.photos where listed.insert(photo.id).inserted {
                index += 1
                sink.photo(ListedPhoto(
                    provider: provider.service.id, page: number, index: index, id: photo.id, title: photo.title, owner: photo.owner,
                    ownerName: photo.ownerName, dateTaken: photo.dateTaken,
                    thumbnailURL: provider.imageURL(for: photo, size: thumbnailSize)?.absoluteString,
                    imageURL: provider.imageURL(for: photo, size: photo.detailSize)?.absoluteString,
                    license: photo.credit?.license?.shortName, licenseURL: photo.credit?.license?.url?.absoluteString,
                    licenseID: photo.credit?.license?.providerID, creator: photo.credit?.creator,
                    attribution: photo.credit.map { _ in photo.attributionLine(pageURL: provider.photoPageURL(for: photo)) },
                    visibility: photo.visibility?.name))
            }
            let last = query.lastServedPage(pages: result.pages, perPage: perPage, from: provider)
            if number >= last {
                if number < lastWanted {
                    sink.note(last < result.pages
                        ? "Stopped after page \(number): \(provider.displayName) serves only the first \(provider.maxResults ?? result.total) results."
                        : "Stopped after page \(number), the last page.")
                }
                return
            }
            number += 1
        }
    }
}

/// Why a listing stopped, worded for a person.
public struct ListingError: WordedError {
    public let message: String
    public var description: String { message }
}

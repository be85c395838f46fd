import PhotoCore
import Foundation
import Networking

/// One page of `GET /v2/images/search`, as Shutterstock described it, before
/// anything is fitted to `Photo`.
public struct ShutterstockSearchResults: Sendable, Equatable {
    public var page: Int
    public var perPage: Int
    /// What the server reported; see `total` for the count a client shows.
    public var totalCount: Int
    /// Missing from early (2015) answers.
    public var searchID: String?
    public var images: [ShutterstockImage]
    /// Items in `data` left out because they had no id.
    public var skippedItems: Int
    /// How many items `data` held, kept or skipped.
    public var itemCount: Int

    /// A page shorter than `per_page` is the last one, whatever `total_count`
    /// claims: a free account sees a limited library and simply runs out.
    public var isShortPage: Bool { itemCount < perPage }

    /// `ceil(total_count / per_page)`, or this page when it came back short.
    public var pages: Int {
        if isShortPage || perPage < 1 { return page }
        // Division first: any count the server sends must not overflow.
        return max(1, totalCount / perPage + (totalCount % perPage == 0 ? 0 : 1))
    }

    /// `total_count`, or what the pages so far really held when this page
    /// came back short.
    public var total: Int {
        guard isShortPage else { return totalCount }
        let (before, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        return overflow ? totalCount : min(totalCount, before + itemCount)
    }
}

/// One item of `data`.
public struct ShutterstockImage: Sendable, Equatable {
    /// Digits, sent as a string (or, leniently, a number).
    public var id: String
    /// The `description` member, with stray carriage returns and surrounding
    /// spaces removed; may be empty.
    public var caption: String
    /// Width over height, when sent.
    public var aspect: Double?
    public var contributorID: String?
    /// `photo`, `illustration` or `vector`.
    public var imageType: String?
    /// The item's page on shutterstock.com, sent since about 2025.
    public var pageURL: URL?
    /// Every `assets` member that has a URL and a size, smallest first.
    public var assets: [ShutterstockAsset]
}

/// One `assets` member: a ready-made, watermarked rendition.
public struct ShutterstockAsset: Sendable, Equatable {
    /// The member's name: `small_thumb`, `large_thumb`, `huge_thumb`,
    /// `mosaic`, `preview`, `preview_600`, `preview_1000`, `preview_1500`.
    public var name: String
    public var url: URL
    public var width: Int
    public var height: Int

    /// Width times height, saturating: a server's sizes can be anything up
    /// to Int.max, as numbers past Int's range clamp there.
    public var area: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    public init(name: String, url: URL, width: Int, height: Int) {
        self.name = name
        self.url = url
        self.width = width
        self.height = height
    }

    public var longestEdge: Int { max(width, height) }
}

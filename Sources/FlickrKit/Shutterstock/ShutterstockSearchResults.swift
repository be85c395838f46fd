import Foundation

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
        if isShortPage { return page }
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

    public init(name: String, url: URL, width: Int, height: Int) {
        self.name = name
        self.url = url
        self.width = width
        self.height = height
    }

    public var longestEdge: Int { max(width, height) }
}

extension ShutterstockAsset {
    /// The smallest rendition whose longest edge covers `edge` pixels (give
    /// or take `slack`, so the 1,000 px preview stands in for a 1,024 px
    /// request), else the largest there is. Generic so it serves any
    /// `{url, width, height}` list, not only this type.
    static func smallest<Rendition>(
        covering edge: Int, in renditions: [Rendition], slack: Double = 0.05,
        size: (Rendition) -> (width: Int, height: Int)
    ) -> Rendition? {
        let needed = Int((Double(edge) * (1 - slack)).rounded(.up))
        func longest(_ rendition: Rendition) -> Int { max(size(rendition).width, size(rendition).height) }
        func area(_ rendition: Rendition) -> Int { size(rendition).width * size(rendition).height }
        let covering = renditions.filter { longest($0) >= needed }
        if let best = covering.min(by: { (longest($0), area($0)) < (longest($1), area($1)) }) { return best }
        return renditions.max(by: { (longest($0), area($0)) < (longest($1), area($1)) })
    }
}

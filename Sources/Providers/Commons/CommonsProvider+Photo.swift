import PhotoCore
import Foundation

// MARK: - Fitting Commons files to Photo

extension CommonsProvider {
    /// Rendition labels, in Commons' own words.
    static let thumbnailLabel = "thumb"
    static let largeLabel = "thumb-large"
    static let originalLabel = "original"
    /// The larger thumbnail `/open` draws (one of Wikimedia's standard widths).
    static let largeWidth = 1_280

    /// Originals the app can draw; others (video, PDF, SVG, TIFF, audio)
    /// are shown by their thumbnails alone.
    static let drawableTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp"]

    /// One file as a `Photo`: the page id is its id, the title its name
    /// (`ObjectName`, else the file name without `File:` and extension), the
    /// artist stands in for the owner (Commons has no owner id), and the
    /// licence, artist and description page go in `credit`.
    static func photo(from file: CommonsFile) -> Photo {
        let artist = CommonsText.line(file.metadata["Artist"])
        let mime = file.mime?.lowercased()
        return Photo(
            id: file.pageID, owner: artist ?? "", ownerName: artist, title: title(of: file),
            dateTaken: dateTaken(file.metadata["DateTimeOriginal"]),
            renditions: renditions(of: file),
            aspectRatio: file.width.flatMap { width in file.height.map { Double(width) / Double($0) } },
            credit: PhotoCredit(
                license: license(of: file), creator: artist, pageURL: file.descriptionURL,
                source: "wikimedia commons", fileType: mime.map(fileType)),
            isVideo: mime.map(isVideo) ?? false)
    }

    static func title(of file: CommonsFile) -> String {
        CommonsText.line(file.metadata["ObjectName"]) ?? CommonsText.title(fromPageTitle: file.title)
    }

    static func license(of file: CommonsFile) -> License? {
        CommonsLicense.terms(
            shortName: file.metadata["LicenseShortName"], code: file.metadata["License"], url: file.metadata["LicenseUrl"])
    }

    /// The thumbnail asked for, a larger one for `/open` when the file is
    /// larger, and the original when it is an image the app decodes.
    static func renditions(of file: CommonsFile) -> [PhotoRendition] {
        var renditions: [PhotoRendition] = []
        if let thumbnail = file.thumbnailURL {
            renditions.append(PhotoRendition(
                label: thumbnailLabel, url: thumbnail, width: file.thumbnailWidth, height: file.thumbnailHeight))
            if let large = largeThumbnail(of: file) { renditions.append(large) }
        }
        if let url = file.url, drawableTypes.contains(file.mime?.lowercased() ?? "") {
            renditions.append(PhotoRendition(label: originalLabel, url: url, width: file.width, height: file.height))
        }
        return renditions
    }

    /// Commons' thumbnails are named `{width}px-{name}`: the same path at
    /// 1,280 px is a larger one. Only for that form, and only for files
    /// wider than that.
    private static func largeThumbnail(of file: CommonsFile) -> PhotoRendition? {
        guard let thumbnail = file.thumbnailURL, let thumbWidth = file.thumbnailWidth, thumbWidth < largeWidth,
              let width = file.width, let height = file.height, width > largeWidth,
              var components = URLComponents(url: thumbnail, resolvingAgainstBaseURL: false)
        else { return nil }
        let prefix = "\(thumbWidth)px-"
        var parts = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, last.hasPrefix(prefix) else { return nil }
        parts[parts.count - 1] = "\(largeWidth)px-" + last.dropFirst(prefix.count)
        components.percentEncodedPath = parts.joined(separator: "/")
        guard let url = components.url else { return nil }
        let largeHeight = max(1, Int((Double(largeWidth) * Double(height) / Double(width)).rounded()))
        return PhotoRendition(label: largeLabel, url: url, width: largeWidth, height: largeHeight)
    }

    /// The smallest rendition that fills `need`, else the largest.
    static func imageURL(in photo: Photo, covering need: PixelSize) -> URL? {
        photo.bestRendition(covering: need)?.url
    }

    /// A `PhotoPage` for `request`: more pages exist while Commons sends a
    /// `continue`; the total is `totalhits` when sent. At the 10,000 cap the
    /// pages are the total's, so the app can say the rest exist but are not
    /// served.
    static func page(from answer: CommonsAnswer, request: CommonsSearchRequest) -> PhotoPage {
        let photos = answer.files.map(photo(from:))
        let shown = request.offset.addingReportingOverflow(photos.count)
        let seen = shown.overflow ? Int.max : shown.partialValue
        let total = max(answer.totalHits ?? seen, seen)
        let whole = total / request.limit + (total % request.limit == 0 ? 0 : 1)
        var pages = request.page
        if answer.continuation != nil {
            pages = max(whole, request.page < Int.max ? request.page + 1 : request.page)
        } else if seen >= CommonsSearchRequest.resultCap {
            pages = max(whole, request.page)
        }
        return PhotoPage(page: request.page, pages: pages, perPage: request.limit, total: total, photos: photos)
    }

    // MARK: - Details

    static func details(from file: CommonsFile) -> PhotoDetails {
        let artist = CommonsText.line(file.metadata["Artist"])
        return PhotoDetails(
            id: file.pageID, title: title(of: file),
            description: CommonsText.paragraphs(file.metadata["ImageDescription"]) ?? "",
            ownerUsername: artist, dateTaken: dateTaken(file.metadata["DateTimeOriginal"]),
            license: license(of: file), pageURL: file.descriptionURL)
    }

    static func details(from photo: Photo) -> PhotoDetails {
        PhotoDetails(
            id: photo.id, title: photo.title, ownerUsername: photo.credit?.creator ?? photo.ownerName,
            dateTaken: photo.dateTaken, license: photo.credit?.license, pageURL: photo.credit?.pageURL)
    }

    // MARK: - Small readings

    /// `DateTimeOriginal` is free text (`18 January 2009`); only the form
    /// the app shows (`YYYY-MM-DD`, with a time or not) is kept.
    static func dateTaken(_ text: String?) -> String? {
        guard let text = CommonsText.line(text) else { return nil }
        let digits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        let pieces = text.split(separator: " ")
        guard (1...2).contains(pieces.count) else { return nil }
        let date = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2, date.allSatisfy(digits) else { return nil }
        if pieces.count == 2 {
            let time = pieces[1].split(separator: ":", omittingEmptySubsequences: false)
            guard time.count == 3, time.allSatisfy({ $0.count == 2 && digits($0) }) else { return nil }
            return text
        }
        return text + " 00:00:00"
    }

    /// `image/jpeg` → `jpg`, `image/svg+xml` → `svg`, others their subtype.
    static func fileType(_ mime: String) -> String {
        let subtype = mime.split(separator: "/").last.map(String.init) ?? mime
        switch subtype {
        case "jpeg": return "jpg"
        case "svg+xml": return "svg"
        case "vnd.djvu": return "djvu"
        default: return subtype
        }
    }

    static func isVideo(_ mime: String) -> Bool {
        mime.hasPrefix("video/")
    }
}

/// The hostile sandbox's catalogue: answers that are valid on the wire and
/// hostile in meaning. Each case is named, so a test can ask for one
/// (`--hostile-case NAME`) and a suite can cycle through them all; with
/// several allowed, each faulty URL draws one by the hash of the fault seed
/// and its key, so the same URL gets the same case on every run.
public enum HostileCase: String, Sendable, CaseIterable, Codable {
    // MARK: Text in every text field (titles, owner names, descriptions,
    // tags, album and person names, licence names, attribution strings)
    /// NUL, BEL, BS, VT, FF, DEL, CR and LF inside the text.
    case c0Controls = "c0-controls"
    /// Whole ESC sequences: clear screen, cursor moves, colours, OSC 52
    /// (clipboard), OSC 8 (links), OSC 0 (window title), DCS, alternate screen, a bare ESC.
    case escapeSequences = "escape-sequences"
    /// 8-bit controls: CSI (U+009B), OSC (U+009D), ST, NEL, DCS.
    case c1Controls = "c1-controls"
    /// Right-to-left and left-to-right overrides, embeddings and isolates.
    case bidiOverrides = "bidi-overrides"
    /// Zero-width space, joiners, word joiner, BOM, soft hyphen.
    case zeroWidth = "zero-width"
    /// Unicode tag characters (U+E0000 block), invisible everywhere.
    case tagCharacters = "tag-characters"
    /// Non-characters: U+FFFE, U+FFFF, U+FDD0, U+1FFFE, U+10FFFF.
    case nonCharacters = "non-characters"
    /// Live Markdown links, images and HTML: `[x](javascript:…)`, `<img onerror>`, `<script>`.
    case markdownHTML = "markdown-html"
    /// Backticks and fences that break code spans.
    case backticks
    /// 10,000-character fields.
    case longFields = "long-fields"
    /// Empty and blank fields.
    case emptyFields = "empty-fields"
    /// Path separators, `..`, leading dots and device names: a file name made from the title.
    case pathCharacters = "path-characters"

    // MARK: Numbers
    /// `total`, `pages`, `page`, `per_page`, widths and heights at and beyond Int64's maximum.
    case hugeNumbers = "huge-numbers"
    /// The same, negative.
    case negativeNumbers = "negative-numbers"
    /// The same, empty strings (Flickr's `total: ""`).
    case emptyNumbers = "empty-numbers"

    // MARK: Lists
    /// Every page repeats the first page's photos, and a page lists its first photo twice.
    case duplicateIDs = "duplicate-ids"

    // MARK: Links
    /// Photo and profile links with userinfo: `https://www.flickr.com:443@evil.example/…`.
    case userinfoLinks = "userinfo-links"
    /// Hosts that only look like the service's: `flickr.com.evil.example`, `www.flickr.com.`, `wwwflickr.com`.
    case lookalikeHosts = "lookalike-hosts"
    /// `javascript:`, `data:` and `file:` links where a web page belongs.
    case unsafeSchemes = "unsafe-schemes"

    // MARK: Licences
    /// Openverse `license_version` " 4.0 "; Flickr licence id " 4 ".
    case paddedLicenseVersion = "padded-license-version"
    /// Openverse `license_version` "../../evil".
    case pathLicenseVersion = "path-license-version"
    /// Openverse's attribution string names another licence than its `license` fields.
    case contradictoryAttribution = "contradictory-attribution"
    /// Licences nobody knows: Flickr licence 99 and -1, Openverse `license` "evil" with a `javascript:` deed.
    case unknownLicense = "unknown-license"

    // MARK: Refusals
    /// 429 with `Retry-After: 9223372036854775807`.
    case retryAfterHuge = "retry-after-huge"
    /// 503 with `Retry-After: 99999999999999999999999` (beyond Int64).
    case retryAfterOverflow = "retry-after-overflow"
    /// 429 with `Retry-After: -1`.
    case retryAfterNegative = "retry-after-negative"
    /// 503 with `Retry-After` an HTTP-date in the year 9999.
    case retryAfterFarDate = "retry-after-far-date"
    /// 429 with `Retry-After` an HTTP-date in 1970 (already past).
    case retryAfterPastDate = "retry-after-past-date"
    /// 429 whose body says "Expected available in 9223372036854775807 seconds." (Openverse's throttle wording), no header.
    case throttledDetail = "throttled-detail"
    /// The API's own error answer with a hostile message (escape sequences, bidi, Markdown).
    case errorMessage = "error-message"

    // MARK: Images
    /// A PNG of a few dozen bytes whose header claims 8000×8000.
    case pngHugeHeader = "png-huge-header"
    /// A WebP of a few dozen bytes whose header claims 8000×8000.
    case webpHugeHeader = "webp-huge-header"
    /// A JPEG whose SOF claims 65535×65535.
    case jpegHugeHeader = "jpeg-huge-header"
    /// A valid, tiny-on-the-wire PNG that really is 8192×8192 (one colour).
    case pngHugeValid = "png-huge-valid"
    /// The first half of the real image, with a matching Content-Length.
    case truncatedImage = "truncated-image"
    /// Another format's bytes under the image's own Content-Type (PNG served as image/jpeg, …).
    case mislabelledImage = "mislabelled-image"
    /// 200 with an empty body.
    case emptyImage = "empty-image"

    /// What a case changes, which decides where it applies.
    public enum Kind: Sendable {
        case text, numbers, list, link, license, refusal, image
    }

    public var kind: Kind {
        switch self {
        case .c0Controls, .escapeSequences, .c1Controls, .bidiOverrides, .zeroWidth, .tagCharacters, .nonCharacters,
             .markdownHTML, .backticks, .longFields, .emptyFields, .pathCharacters:
            .text
        case .hugeNumbers, .negativeNumbers, .emptyNumbers: .numbers
        case .duplicateIDs: .list
        case .userinfoLinks, .lookalikeHosts, .unsafeSchemes: .link
        case .paddedLicenseVersion, .pathLicenseVersion, .contradictoryAttribution, .unknownLicense: .license
        case .retryAfterHuge, .retryAfterOverflow, .retryAfterNegative, .retryAfterFarDate, .retryAfterPastDate,
             .throttledDetail, .errorMessage:
            .refusal
        case .pngHugeHeader, .webpHugeHeader, .jpegHugeHeader, .pngHugeValid, .truncatedImage, .mislabelledImage,
             .emptyImage:
            .image
        }
    }

    /// Whether the case can change an API answer (REST) or an image
    /// response. Refusals apply to both; API errors only to API answers.
    public func applies(toImages: Bool) -> Bool {
        switch kind {
        case .image: toImages
        case .refusal: self != .errorMessage || !toImages
        default: !toImages
        }
    }

    /// The cases with this kind.
    public static func all(_ kind: Kind) -> [HostileCase] { allCases.filter { $0.kind == kind } }
}

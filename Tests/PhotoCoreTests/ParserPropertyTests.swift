import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// A small seeded generator (SplitMix64), so a failing case is the same on
/// every run and can be replayed from its printed seed and index.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
}

/// Every parser here that has a printer, as properties over generated
/// input: what is read and printed reads back the same; hostile input is
/// refused in a sentence, never misread.
@Suite struct ParserPropertyTests {
    static let cases = 3_000

    // MARK: - Query and filters

    /// Pieces people and fuzzers type: filter words, quotes of all kinds,
    /// colons, commas, controls, combining marks, odd white space.
    static let fragments = [
        "user:", "tag:", "tags:", "tags:all", "tags:any", "license:", "sort:", "near:", "bbox:", "taken:", "uploaded:",
        "type:", "orientation:", "safe:", "cc0", "by", "by-sa", "newest", "2020", "2020-05..2021", "..2022-12-31",
        "0.00001,0.00001,0.5km", "-1e-06,0,1,1", "-0.5,-0.5,0.5,0.5", "on", "photo", "square", "\"", "“", "”", ":", ",",
        " ", "  ", "\t", "\n", "\u{2028}", "\u{85}", "\u{A0}", "\u{3000}", "\u{7F}", "\u{1B}[31m", "\u{301}", "\u{200D}",
        "\u{600}", "\u{FFFE}", "Ana", "S", "uza", "*", "-", "lighthouse", "ag", "b", "gta*", "é", "🦉", "\r\n", "\\",
    ]

    static func hostileLine(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...12, using: &random)).map { _ in random.pick(fragments) }.joined()
    }

    @Test func aParsedQueryTypedBackIsTheSameQuery() throws {
        var random = SeededGenerator(seed: 29_011)
        var accepted = 0
        for index in 0..<Self.cases {
            let line = Self.hostileLine(&random)
            guard let query = try? SearchQuery.parse(line) else { continue }
            accepted += 1
            let typed = query.typed
            let reread: SearchQuery?
            do {
                reread = try SearchQuery.parse(typed)
            } catch {
                Issue.record("case \(index): \(line.debugDescription) → \(typed.debugDescription) is refused: \(error)")
                continue
            }
            let again = try #require(reread, "case \(index): \(line.debugDescription) → \(typed.debugDescription)")
            #expect(again == query, "case \(index): \(line.debugDescription) → \(typed.debugDescription)")
            #expect(again.typed == typed)
        }
        #expect(accepted > Self.cases / 4, "the generator mostly made lines the parser refuses: \(accepted)")
    }

    @Test func theFuzzersQueryReadsBackTheSame() throws {
        // libFuzzer's find: a quote inside a value used to shift every word after it.
        let line = "user:\"ag:*Ana S\u{7F}uza\": gta*,b tags:all"
        if let query = try? SearchQuery.parse(line) {
            #expect(try SearchQuery.parse(query.typed) == query, "\(query.typed.debugDescription)")
        }
        let quoted = try #require(try SearchQuery.parse("lighthouse user:\"Ana S\u{7F}uza\" tag:gta*,b tags:all"))
        #expect(quoted.filters.user == "Ana S\u{7F}uza")
        #expect(try SearchQuery.parse(quoted.typed) == quoted)
        // A text's unclosed quote runs to the end of the line: the filters go first.
        let unclosed = try #require(try SearchQuery.parse("sort:newest \"abc"))
        #expect(try SearchQuery.parse(unclosed.typed) == unclosed, "\(unclosed.typed.debugDescription)")
    }

    static func generatedFilters(_ random: inout SeededGenerator) -> SearchFilters {
        let words = ["ana", "Ana Souza", "a\u{7F}b", "x y\tz", "é\u{301}", "🦉", "*", "a:b", "-x", "\u{2028}q", "n\u{85}m"]
        var filters = SearchFilters()
        if random.chance(50) {
            var licenses: [LicenseFilter] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let license = random.pick(LicenseFilter.allCases)
                if !licenses.contains(license) { licenses.append(license) }
            }
            filters.licenses = licenses
        }
        if random.chance(40) { filters.sort = random.pick(SortFilter.allCases) }
        if random.chance(30) { filters.taken = DateRange(Substring(random.pick(["2020", "2020-05..2021", "..2022-12-31", "2019-02-28", "2001.."]))) }
        if random.chance(30) { filters.uploaded = DateRange(Substring(random.pick(["2021", "2020-01..2020-01"]))) }
        if random.chance(40) { filters.user = random.pick(words) }
        if random.chance(40) {
            var tags: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let tag = random.pick(words)
                if !tags.contains(tag) { tags.append(tag) }
            }
            filters.tags = tags
            filters.allTags = random.chance(50)
        }
        if random.chance(40) {
            filters.near = GeoCircle(
                latitude: Self.coordinate(&random, limit: 90), longitude: Self.coordinate(&random, limit: 180),
                radiusKilometres: random.chance(50) ? Self.radius(&random) : nil)
        }
        if random.chance(30) {
            let west = Self.coordinate(&random, limit: 179), south = Self.coordinate(&random, limit: 89)
            filters.bbox = BoundingBox(
                minLongitude: west, minLatitude: south,
                maxLongitude: min(180, west + Self.radius(&random)), maxLatitude: min(90, south + Self.radius(&random)))
        }
        if random.chance(30) { filters.type = random.pick(ContentType.allCases) }
        if random.chance(30) { filters.orientation = random.pick(Orientation.allCases) }
        if random.chance(30) { filters.safe = random.chance(50) }
        return filters
    }

    /// Mostly small magnitudes, where `String(Double)` turns to exponents.
    static func coordinate(_ random: inout SeededGenerator, limit: Double) -> Double {
        let magnitude = Double.random(in: 0...1, using: &random) * pow(10, Double(Int.random(in: -12...2, using: &random)))
        let signed = random.chance(50) ? -magnitude : magnitude
        return max(-limit, min(limit, signed))
    }

    static func radius(_ random: inout SeededGenerator) -> Double {
        let value = Double.random(in: 0...1, using: &random) * pow(10, Double(Int.random(in: -9...1, using: &random)))
        return value > 0 ? min(32, value) : 0.5
    }

    @Test func generatedFiltersPrintAsWordsThatReadBackTheSame() throws {
        var random = SeededGenerator(seed: 29_010)
        for index in 0..<Self.cases {
            let filters = Self.generatedFilters(&random)
            guard !filters.isEmpty else { continue }
            // `/filter` shows the words, and they are what is typed back.
            let words = filters.words.joined(separator: " ")
            let parsed = try #require(try SearchQuery.parse(words), "case \(index): \(words.debugDescription)")
            #expect(parsed.filters == filters && parsed.text.isEmpty, "case \(index): \(words.debugDescription)")
            #expect(!words.contains("e-") && !words.contains("e+"), "case \(index): an exponent in \(words)")
            // And with search text before them, as history keeps them.
            let query = try #require(SearchQuery(text: "owls \"at night\"", filters: filters))
            #expect(try SearchQuery.parse(query.typed) == query, "case \(index): \(query.typed.debugDescription)")
        }
    }

    @Test func smallPlacesAreTypedAndSentInPlainDecimal() throws {
        let query = try #require(try SearchQuery.parse("near:0.00001,0.00001,0.5km bbox:-0.000001,0,1,1"))
        #expect(query.filters.words == ["near:0.00001,0.00001,0.5km", "bbox:-0.000001,0,1,1"])
        #expect(try SearchQuery.parse(query.filters.words.joined(separator: " ")) == query)
        let tiny = try #require(try SearchQuery.parse("near:1,1,0.0000001km"))
        let parameters = try FlickrProvider.searchParameters(tiny, userID: nil)
        let sent = Dictionary(parameters, uniquingKeysWith: { a, _ in a })
        #expect(sent["radius"] == "0.0000001")
        #expect(try FlickrProvider.searchParameters(query, userID: nil).first { $0.0 == "bbox" }?.1 == "-0.000001,0,1,1")
        #expect(try FlickrProvider.searchParameters(query, userID: nil).first { $0.0 == "lat" }?.1 == "0.00001")
    }

    @Test func plainDecimalsReadBackExactly() {
        var random = SeededGenerator(seed: 29_100)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e-5, 1e-7, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e300, -1e22, 123_456_789.125, 90, -180]
        for _ in 0..<Self.cases {
            let exponent = Double(Int.random(in: -30...30, using: &random))
            values.append(Double.random(in: -1...1, using: &random) * pow(10, exponent))
            values.append(Double(bitPattern: random.next()))
        }
        for value in values where value.isFinite {
            let text = PlainDecimal.format(value)
            #expect(text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }, "\(value) → \(text)")
            #expect(Double(text) == value, "\(value) → \(text)")
        }
    }

    // MARK: - Repeated and incomplete filter words

    @Test func aRepeatedFilterMergesOrIsRefused() throws {
        #expect(try SearchQuery.parse("license:cc0 license:by")?.filters.licenses == [.cc0, .by])
        #expect(try SearchQuery.parse("tag:a tag:b,a")?.filters.tags == ["a", "b"])
        #expect(try SearchQuery.parse("sort:newest sort:newest")?.filters.sort == .newest, "the same value twice is one")
        for line in ["sort:newest sort:oldest", "user:ana user:bob", "safe:on safe:off", "near:1,1 near:2,2", "tags:all tags:any tag:a"] {
            #expect(throws: QueryError.self, "\(line)") { try SearchQuery.parse(line) }
        }
    }

    @Test func tagsAllNeedsATag() throws {
        do {
            _ = try SearchQuery.parse("lighthouse tags:all")
            Issue.record("tags:all with no tag was accepted")
        } catch {
            #expect(error.description.contains("tag:"), "\(error.description)")
        }
        #expect(try SearchQuery.parse("tags:all tag:a,b")?.filters.allTags == true)
        #expect(try SearchQuery.parse("tag:a,b tags:all")?.filters.tags == ["a", "b"])
    }

    @Test func aQuoteInsideAValueIsRefusedInASentence() {
        for line in ["user:a\"b", "tag:x,\"y z\"w", "user:“Ana”Souza"] {
            #expect(throws: QueryError.self, "\(line)") { try SearchQuery.parse(line) }
        }
    }

    // MARK: - Links

    static let flickrHosts = ["flickr.com", "www.flickr.com", "m.flickr.com", "secure.flickr.com"]

    /// A link every form of which the reader accepts, and the link it names.
    static func generatedLink(_ random: inout SeededGenerator) -> (line: String, link: ProviderLink) {
        let users = ["anasouza", "12345678@N00", "a_b-c", "Z9"]
        let user = random.pick(users)
        let id = String(max(1, UInt64.random(in: 1...UInt64.max, using: &random) >> UInt64.random(in: 0...63, using: &random)))
        let host = random.pick(flickrHosts)
        let (path, link, onHost): (String, ProviderLink, String) = switch Int.random(in: 0..<7, using: &random) {
        case 0: ("/photos/\(user)/\(id)/" + random.pick(["", "in/photostream/", "sizes/l/"]), .photo(id: id), host)
        case 1: ("/photos/\(user)/\(random.pick(["albums", "sets"]))/\(id)", .album(id: id, owner: user), host)
        case 2:
            ("/photos/\(user)/galleries/\(id)/",
             .gallery(URL(string: "https://www.flickr.com/photos/\(user)/galleries/\(id)/")!), host)
        case 3: ("/" + random.pick(["photos", "people"]) + "/\(user)/", .person(user), host)
        case 4: ("/groups/\(user)/" + random.pick(["", "pool/"]), .pool(group: user), host)
        case 5:
            ("/p/\(FlickrLinkReader.encodeBase58(UInt64(id)!))", .photo(id: id), random.pick(["flic.kr", "www.flic.kr"]))
        default:
            ("/65535/\(id)_abc\(random.pick(["", "_b"])).jpg", .photo(id: id),
             random.pick(["live.staticflickr.com", "farm1.staticflickr.com", "farm66.static.flickr.com"]))
        }
        let cased = random.chance(30) ? onHost.uppercased() : onHost
        let scheme = random.pick(["https://", "http://", "HTTPS://", "//", ""])
        let port = scheme.isEmpty ? "" : random.pick(["", "", ":443", ":80"])
        let tail = random.pick(["", "?utm_source=x", "#comment", "?a=b@c#d"])
        return (scheme + cased + port + path + tail, link)
    }

    @Test func everyLinkFormReadsAsItsLinkAndPrintsBackTheSame() throws {
        var random = SeededGenerator(seed: 29_002)
        for index in 0..<Self.cases {
            let (line, link) = Self.generatedLink(&random)
            #expect(FlickrLinkReader.read(line) == .link(link), "case \(index): \(line)")
            let printed = try #require(FlickrLinkReader.address(of: link), "case \(index): \(link)")
            #expect(FlickrLinkReader.read(printed) == .link(link), "case \(index): \(link) → \(printed)")
        }
    }

    /// A Flickr link turned into one whose real host is someone else's.
    static func hostileVariant(of line: String, _ random: inout SeededGenerator) -> String {
        guard let address = LinkAddress(line) else { return "evil.example" }
        let host = address.host
        let after = String(line[line.range(of: host, options: .caseInsensitive)!.upperBound...])
        let scheme = random.pick(["https://", "http://", "//", ""])
        let evil = random.pick(["evil.example", "127.0.0.1", "flickr.com.evil.example", "evil-flickr.com"])
        let hostile: String = switch Int.random(in: 0..<14, using: &random) {
        case 0: "https://\(host):443@\(evil)\(after.drop { $0 != "/" })"
        case 1: "https://\(host)@\(evil)/\(after.drop { $0 != "/" })"
        case 2: "\(scheme)\(host).evil.example\(after)"
        case 3: "\(scheme)evil\(host.split(separator: ".").suffix(2).joined(separator: "."))\(after)"
        case 4: "\(scheme)\(host).\(after)"
        case 5: "\(scheme)\(evil)\\\(host)\(after)"
        case 6: "\(scheme)\(host)\\@\(evil)\(after)"
        case 7: "\(scheme)\(host.replacingOccurrences(of: ".", with: "%2E"))\(after)"
        case 8: "\(scheme)\(host.replacingOccurrences(of: "i", with: "\u{456}"))\(after)"
        case 9: "\(scheme)\(host.replacingOccurrences(of: ".", with: "\u{3002}"))\(after)"
        case 10: "https:///\(evil)/\(host)\(after)"
        case 11: "\(scheme)\(evil)/\(host)\(after)"
        case 12: "\(scheme)\(host) \(after)"
        default: "javascript://\(host)\(after)"
        }
        return hostile
    }

    @Test func aHostThatIsNotFlickrsIsNeverReadAsAFlickrLink() {
        var random = SeededGenerator(seed: 29_003)
        for index in 0..<Self.cases {
            let (line, _) = Self.generatedLink(&random)
            let hostile = Self.hostileVariant(of: line, &random)
            if case .link(let link) = FlickrLinkReader.read(hostile) {
                Issue.record("case \(index): \(hostile.debugDescription) was read as \(link)")
            }
        }
    }

    @Test(arguments: [
        "https://www.flickr.com:443@evil.example/photos/anasouza/",
        "https://www.flickr.com:x@evil.example/photos/anasouza/",
        "https://user:pass@www.flickr.com/photos/anasouza/",
        "https://flickr.com.evil.example/photos/anasouza/",
        "https://evilflickr.com/photos/anasouza/",
        "https://www.flickr.com./photos/anasouza/",
        "https://www.flickr.com\\@evil.example/photos/anasouza/",
        "https://www.flickr%2Ecom/photos/anasouza/",
        "https://www.fl\u{456}ckr.com/photos/anasouza/",
        "//evil.example/www.flickr.com/photos/anasouza/",
        "ftp://www.flickr.com/photos/anasouza/",
        "https:/www.flickr.com/photos/anasouza/",
        "https://a.b.staticflickr.com.evil.example/1/2_x.jpg",
        "https://flickr.com /photos/anasouza/",
    ])
    func lookAlikeLinksAreNotFlickrs(_ line: String) {
        if case .link = FlickrLinkReader.read(line) { Issue.record("\(line) was read as a Flickr link") }
    }

    @Test func upperCaseHostsAreStillFlickrs() {
        #expect(FlickrLinkReader.read("HTTPS://WWW.FLICKR.COM/photos/anasouza/") == .link(.person("anasouza")))
    }
}

import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// Every Flickr link form the prompt accepts, as a table: what the reader
/// makes of it, without any network.
@Suite struct FlickrLinkReaderTests {
    private static let gallery = URL(string: "https://www.flickr.com/photos/kuchpop/galleries/72157720932863274/")!

    static let table: [(String, LinkReading)] = [
        // Photo pages, in every spelling.
        ("https://www.flickr.com/photos/george/53637883806/", .link(.photo(id: "53637883806"))),
        ("https://www.flickr.com/photos/george/53637883806", .link(.photo(id: "53637883806"))),
        ("http://flickr.com/photos/34427469121@N01/53637883806/", .link(.photo(id: "53637883806"))),
        ("www.flickr.com/photos/george/53637883806", .link(.photo(id: "53637883806"))),
        ("https://m.flickr.com/photos/george/53637883806/?rb=1#comments", .link(.photo(id: "53637883806"))),
        ("https://secure.flickr.com/photos/george/53637883806/", .link(.photo(id: "53637883806"))),
        ("HTTPS://WWW.FLICKR.COM/photos/george/53637883806/", .link(.photo(id: "53637883806"))),
        ("https://www.flickr.com/photos/spike_yun/18250964001/in/album-72157677773252346/", .link(.photo(id: "18250964001"))),
        ("https://www.flickr.com/photos/george/53637883806/sizes/l/", .link(.photo(id: "53637883806"))),
        ("  https://www.flickr.com/photos/george/53637883806/  ", .link(.photo(id: "53637883806"))),
        // Short links: flickrapi's documented pair, and the encodings of recorded ids.
        ("https://flic.kr/p/7Afjsu", .link(.photo(id: "4325695128"))),
        ("flic.kr/p/2pHNb97", .link(.photo(id: "53637883806"))),
        ("http://flic.kr/p/tNLXK8/", .link(.photo(id: "18250964001"))),
        // An image file names its photo.
        ("https://live.staticflickr.com/65535/53637883806_ff06bb5c65_b.jpg", .link(.photo(id: "53637883806"))),
        // People.
        ("https://www.flickr.com/photos/flickrfoundation/", .link(.person("flickrfoundation"))),
        ("flickr.com/photos/george", .link(.person("george"))),
        ("https://www.flickr.com/photos/george/page3", .link(.person("george"))),
        ("https://www.flickr.com/people/197130754@N07/", .link(.person("197130754@N07"))),
        ("https://m.flickr.com/people/george?utm_source=x", .link(.person("george"))),
        // Albums, new and old names.
        ("https://www.flickr.com/photos/spike_yun/albums/72157677773252346", .link(.album(id: "72157677773252346", owner: "spike_yun"))),
        ("https://www.flickr.com/photos/spike_yun/albums/72157677773252346/with/18250964001/", .link(.album(id: "72157677773252346", owner: "spike_yun"))),
        ("https://www.flickr.com/photos/132051449@N06/sets/72157677773252346/", .link(.album(id: "72157677773252346", owner: "132051449@N06"))),
        // Galleries, made canonical.
        ("https://www.flickr.com/photos/kuchpop/galleries/72157720932863274/", .link(.gallery(gallery))),
        ("http://m.flickr.com/photos/kuchpop/galleries/72157720932863274?page=2", .link(.gallery(gallery))),
        // Group pools and group pages.
        ("https://www.flickr.com/groups/slovenia/pool/", .link(.pool(group: "slovenia"))),
        ("https://www.flickr.com/groups/slovenia/pool/page4", .link(.pool(group: "slovenia"))),
        ("https://www.flickr.com/groups/31849566@N00/", .link(.pool(group: "31849566@N00"))),
        // Flickr's site, but no page the app shows.
        ("https://www.flickr.com/explore", .unsupported(FlickrLinkReader.understood)),
        ("https://www.flickr.com/photos/tags/sunset/", .unsupported(FlickrLinkReader.understood)),
        ("https://www.flickr.com/groups/slovenia/discuss/", .unsupported(FlickrLinkReader.understood)),
        ("https://www.flickr.com/photos/george/albums/", .unsupported(FlickrLinkReader.understood)),
        ("https://flic.kr/p/0OIl", .unsupported(FlickrLinkReader.understood)),
        ("https://flic.kr/s/aHsk", .unsupported(FlickrLinkReader.understood)),
        ("flickr.com", .unsupported(FlickrLinkReader.understood)),
        // Not a Flickr link at all.
        ("kittens", .notALink),
        ("flickr photos", .notALink),
        ("flickr", .notALink),
        ("sunset user:george", .notALink),
        ("see https://www.flickr.com/photos/george/53637883806/", .notALink),
        ("https://example.com/photos/george/53637883806/", .notALink),
        ("https://notflickr.com/photos/george/", .notALink),
        ("https://flickr.com.evil.example/photos/george/", .notALink),
        ("ftp://flickr.com/photos/george/", .notALink),
        ("", .notALink),
    ]

    @Test(arguments: table)
    func readsEachForm(_ text: String, _ expected: LinkReading) {
        #expect(FlickrLinkReader.read(text) == expected, "\(text)")
    }

    @Test func theUnsupportedSentenceNamesEveryLinkUnderstood() {
        for form in ["flickr.com/photos/USER/ID", "flic.kr/p/", "flickr.com/people/USER", "/albums/ID", "/sets/ID", "/galleries/ID", "flickr.com/groups/NAME/pool"] {
            #expect(FlickrLinkReader.understood.contains(form), "\(form)")
        }
    }

    @Test func base58RoundTripsAndRefusesWhatIsNotACode() {
        #expect(FlickrLinkReader.decodeBase58("7Afjsu") == "4325695128")
        #expect(FlickrLinkReader.decodeBase58("2") == "1")
        #expect(FlickrLinkReader.decodeBase58("") == nil)
        #expect(FlickrLinkReader.decodeBase58("abc0") == nil, "0 is not in Flickr's alphabet")
        #expect(FlickrLinkReader.decodeBase58(String(repeating: "Z", count: 20)) == nil, "too large for an id")
    }
}

import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// Which image URL a requirement gets: the smallest carried size that
/// fills it, else a URL built on Flickr's static host, never the API host.
@Suite struct ImageSelectionTests {
    private let provider = FlickrProvider(apiKey: "k", network: FlickrRequestTests.idleNetwork)

    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    /// A 3:2 landscape photo carrying q (crop), n, z and l, as a search answer gives them.
    private func landscape() throws -> Photo {
        try Photo(
            id: "42", owner: "1@N00", title: "t",
            renditions: [
                PhotoRendition(label: "q", url: url("https://live.staticflickr.com/7/42_abc_q.jpg"), width: 150, height: 150, isCrop: true),
                PhotoRendition(label: "n", url: url("https://live.staticflickr.com/7/42_abc_n.jpg"), width: 320, height: 213),
                PhotoRendition(label: "z", url: url("https://live.staticflickr.com/7/42_abc_z.jpg"), width: 640, height: 427),
                PhotoRendition(label: "l", url: url("https://live.staticflickr.com/7/42_abc_b.jpg"), width: 1024, height: 683),
            ],
            flickr: FlickrPhotoKeys(secret: "abc", server: "7"))
    }

    /// Sizes come from the server: two near Int.max made the area
    /// comparison trap while a photo was built (Openverse's hostile answer).
    @Test func hugeServerSizesOrderWithoutOverflow() throws {
        let huge = Int.max / 2
        let photo = try Photo(
            id: "7", owner: "o", title: "t",
            renditions: [
                PhotoRendition(label: "a", url: url("https://example.org/a.jpg"), width: huge, height: huge),
                PhotoRendition(label: "b", url: url("https://example.org/b.jpg"), width: Int.max, height: 3),
                PhotoRendition(label: "c", url: url("https://example.org/c.jpg"), width: 320, height: 240),
            ])
        #expect(PixelSize(width: huge, height: huge).area == Int.max)
        #expect(photo.bestRendition(covering: PixelSize(width: 100, height: 100))?.label == "c")
        #expect(photo.aspectRatio != nil)
    }

    @Test func theSmallestCarriedSizeThatFillsTheAreaIsChosen() throws {
        let photo = try landscape()
        #expect(provider.imageURL(for: photo, covering: PixelSize(width: 200, height: 200))?.lastPathComponent == "42_abc_n.jpg")
        #expect(provider.imageURL(for: photo, covering: PixelSize(width: 320, height: 320))?.lastPathComponent == "42_abc_n.jpg")
        #expect(provider.imageURL(for: photo, covering: PixelSize(width: 600, height: 300))?.lastPathComponent == "42_abc_z.jpg")
        // Fitting a wide box, either edge may be the one that fills it: 427 px high is enough for 420.
        #expect(provider.imageURL(for: photo, covering: PixelSize(width: 1000, height: 420))?.lastPathComponent == "42_abc_z.jpg")
        #expect(provider.imageURL(for: photo, covering: PixelSize(width: 700, height: 500))?.lastPathComponent == "42_abc_b.jpg")
    }

    /// Crops are chosen only by name: a square cell gets the whole photo.
    @Test func cropsAreNotChosenToFillAnArea() throws {
        let photo = try landscape()
        #expect(provider.imageURL(for: photo, covering: PixelSize(width: 120, height: 120))?.lastPathComponent == "42_abc_n.jpg")
        #expect(provider.imageURL(for: photo, size: .square150)?.lastPathComponent == "42_abc_q.jpg")
        #expect(provider.imageURL(for: photo, size: .square75)?.absoluteString == "https://live.staticflickr.com/7/42_abc_s.jpg")
    }

    /// Sizes a search answer leaves out do not exist for that photo (a small
    /// original has no 1024 px): the biggest carried one stands in, nothing is built.
    @Test func whenNothingCarriedIsBigEnoughTheBiggestIsUsedAndNothingIsBuilt() throws {
        var photo = try landscape()
        photo.renditions.removeAll { $0.label == "l" }
        #expect(provider.imageURL(for: photo, covering: PixelSize(width: 1600, height: 1000))?.lastPathComponent == "42_abc_z.jpg")
        #expect(provider.imageURL(for: photo, size: .large1024)?.lastPathComponent == "42_abc_z.jpg")
    }

    @Test func aPhotoWithoutSizesGetsBuiltURLsOnTheStaticHost() throws {
        let bare = Photo(id: "42", owner: "1@N00", secret: "abc", server: "7", title: "t")
        #expect(provider.imageURL(for: bare, covering: PixelSize(width: 300, height: 300))?.absoluteString
                == "https://live.staticflickr.com/7/42_abc_n.jpg")
        #expect(provider.imageURL(for: bare, covering: PixelSize(width: 450, height: 450))?.absoluteString
                == "https://live.staticflickr.com/7/42_abc.jpg")
        #expect(provider.imageURL(for: bare, covering: PixelSize(width: 4000, height: 3000))?.absoluteString
                == "https://live.staticflickr.com/7/42_abc_b.jpg")
    }

    /// With a known 2:1 aspect ratio, a 640 px-wide image is 320 px high: enough for a 600×300 box.
    @Test func theAspectRatioNarrowsTheBuiltSize() {
        var bare = Photo(id: "42", owner: "1@N00", secret: "abc", server: "7", title: "t")
        bare.aspectRatio = 2
        #expect(provider.imageURL(for: bare, covering: PixelSize(width: 700, height: 300))?.lastPathComponent == "42_abc_z.jpg")
        bare.aspectRatio = nil
        #expect(provider.imageURL(for: bare, covering: PixelSize(width: 700, height: 300))?.lastPathComponent == "42_abc_c.jpg")
    }

    @Test func theImageHostOverrideIsUsedForBuilding() throws {
        let sandbox = FlickrProvider(
            apiKey: "k", endpoint: try url("http://127.0.0.1:9/services/rest/"), imageHost: try url("http://127.0.0.1:9/"),
            network: FlickrRequestTests.idleNetwork)
        let bare = Photo(id: "42", owner: "1@N00", secret: "abc", server: "7", title: "t")
        #expect(sandbox.imageURL(for: bare, size: .medium640)?.absoluteString == "http://127.0.0.1:9/7/42_abc_z.jpg")
    }

    /// A mirror's endpoint is never an image host, even when every URL would be built.
    @Test func aMirrorEndpointIsNeverUsedForImages() throws {
        let mirror = FlickrProvider(apiKey: "k", endpoint: try url("http://127.0.0.1:9/services/rest/"), network: FlickrRequestTests.idleNetwork)
        let bare = Photo(id: "42", owner: "1@N00", secret: "abc", server: "7", title: "t")
        for size in PhotoSize.allCases {
            let built = mirror.imageURL(for: bare, size: size)
            #expect(built?.host == "live.staticflickr.com", "\(size)")
        }
    }

    /// Built sizes follow the host the photo's other sizes came from, when
    /// that is a mirror of Flickr's image host rather than Flickr itself.
    @Test func builtURLsFollowAnImageMirrorButNotOldFlickrHosts() throws {
        let carried = { (text: String) throws -> Photo in
            try Photo(id: "42", owner: "1@N00", title: "",
                      renditions: [PhotoRendition(label: "q", url: self.url(text), width: 150, height: 150, isCrop: true)],
                      flickr: FlickrPhotoKeys(secret: "abc", server: "7"))
        }
        let mirrored = try carried("https://images.example.net/flickr/7/42_abc_q.jpg")
        #expect(provider.imageURL(for: mirrored, size: .medium640)?.absoluteString == "https://images.example.net/flickr/7/42_abc_z.jpg")
        let legacy = try carried("http://farm3.static.flickr.com/7/42_abc_q.jpg")
        #expect(provider.imageURL(for: legacy, size: .medium640)?.absoluteString == "https://live.staticflickr.com/7/42_abc_z.jpg")
        let onTheAPIHost = try carried("https://api.flickr.com/7/42_abc_q.jpg")
        #expect(provider.imageURL(for: onTheAPIHost, size: .medium640)?.host == "live.staticflickr.com")
    }

    @Test func otherProvidersChooseAmongTheirOwnRenditions() throws {
        let photo = try Photo(id: "1572478477", owner: "250738318", title: "Woman gardening", renditions: [
            PhotoRendition(label: "preview", url: url("https://image.example/preview.jpg"), width: 450, height: 300),
            PhotoRendition(label: "small_thumb", url: url("https://thumb.example/small.jpg"), width: 100, height: 67),
        ])
        #expect(photo.flickr == nil)
        #expect(photo.secret == "")
        #expect(photo.aspectRatio == 1.5)
        #expect(photo.carriedImageURL(covering: PixelSize(width: 90, height: 90))?.lastPathComponent == "small.jpg")
        #expect(photo.carriedImageURL(size: .medium640)?.lastPathComponent == "preview.jpg")
    }

    @Test func compatibilityImagesViewMapsFlickrSizes() throws {
        var photo = try landscape()
        #expect(Set(photo.images.keys) == [.square150, .small320, .medium640, .large1024])
        #expect(photo.images[.medium640]?.width == 640)
        photo.images = [:]
        #expect(photo.renditions.isEmpty)
        #expect(photo.aspectRatio != nil)
    }
}

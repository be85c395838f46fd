import Foundation
import Testing
@testable import PhotoCore
@testable import ShutterstockService
import FlickrService

/// Shutterstock images as `Photo`s: which rendition each size gets, what
/// `/open` shows, and the page a person opens.
@Suite struct ShutterstockPhotoTests {
    private func provider() throws -> ShutterstockProvider {
        ShutterstockProvider(credentials: try .token("t"), network: ShutterstockRequestTests.idleNetwork)
    }

    private func photos(_ file: String) throws -> [Photo] {
        try ShutterstockResponseDecoder.decodeSearch(try ShutterstockRecorded.data(file)).images.map(ShutterstockProvider.photo(from:))
    }

    @Test func photoCarriesIdContributorAndCleanTitle() throws {
        let photo = try #require(try photos(ShutterstockRecorded.farmer2019).first)
        #expect(photo.id == "508785310")
        #expect(photo.owner == "1368610")
        #expect(photo.title == "Middle aged man portrait on farmland.")
        #expect(photo.secret.isEmpty && photo.server.isEmpty && photo.farm == nil)
    }

    @Test func gridThumbnailIsTheLargeThumb() throws {
        let photo = try #require(try photos(ShutterstockRecorded.forest2026).first)
        let url = try #require(try provider().imageURL(for: photo, size: .square150))
        #expect(url.absoluteString == "https://image.shutterstock.com/image-photo/majestic-woods-dramatic-sunbeams-illuminating-150nw-2730669441.jpg")
        let chosen = try #require(photo.renditions.first { $0.url == url })
        #expect(chosen.label == "large_thumb" && chosen.width == 150 && chosen.height == 86)
        #expect(photo.aspectRatio.map { abs($0 - 1.75) < 0.001 } == true, "the answer's own aspect")
    }

    @Test func openUsesTheThousandPixelPreviewWhenThereIsOne() throws {
        let photo = try #require(try photos(ShutterstockRecorded.forest2026).first)
        #expect(photo.detailSize == .large1024)
        let url = try #require(try provider().imageURL(for: photo, size: photo.detailSize))
        #expect(url.absoluteString == "https://image.shutterstock.com/image-photo/majestic-woods-dramatic-sunbeams-illuminating-1000w-2730669441.jpg")
    }

    @Test func openFallsBackToTheLargestPreviewInOlderAnswers() throws {
        let photo = try #require(try photos(ShutterstockRecorded.apple2017).first)
        let url = try #require(try provider().imageURL(for: photo, size: photo.detailSize))
        let image = try #require(photo.renditions.first { $0.url == url })
        // 04 has no huge_thumb or larger previews: `preview`, 450 × 450, is the biggest.
        #expect(image.width == 450 && image.height == 450)
        #expect(image.url.absoluteString.contains("display_pic_with_logo"))
    }

    @Test func eachSizeGetsTheSmallestRenditionThatCoversIt() throws {
        // 07's first item is portrait: 66×100, 99×150, 166×250 (mosaic), 173×260, 299×450, 666×1000, 999×1500.
        let photo = try #require(try photos(ShutterstockRecorded.hiking2024).first)
        let expected: [PhotoSize: [Int]] = [
            .square75: [66, 100], .thumbnail100: [66, 100], .square150: [99, 150], .small240: [166, 250],
            .small320: [299, 450], .small400: [299, 450], .medium500: [666, 1000], .medium640: [666, 1000],
            .medium800: [666, 1000], .large1024: [666, 1000],
        ]
        let provider = try provider()
        for (size, dimensions) in expected {
            let url = try #require(provider.imageURL(for: photo, size: size), "\(size)")
            let image = try #require(photo.renditions.first { $0.url == url }, "\(size)")
            #expect([image.width ?? 0, image.height ?? 0] == dimensions, "\(size)")
        }
    }

    @Test func photoWithoutAssetsHasNoImageURL() throws {
        let photo = ShutterstockProvider.photo(from: ShutterstockImage(
            id: "1", caption: "", aspect: nil, contributorID: nil, imageType: nil, pageURL: nil, assets: []))
        #expect(try provider().imageURL(for: photo, size: .square150) == nil)
        #expect(photo.owner == "")
    }

    @Test func photoPageIsBuiltFromTheId() throws {
        let photo = try #require(try photos(ShutterstockRecorded.forest2026).first)
        #expect(try provider().photoPageURL(for: photo)?.absoluteString == "https://www.shutterstock.com/image-photo/2730669441")
    }

    @Test(arguments: ["", "12a", "../1", "1/2", "１２"])
    func oddIdsGetNoPage(_ id: String) throws {
        let photo = Photo(id: id, owner: "1", secret: "", server: "", title: "")
        #expect(try provider().photoPageURL(for: photo) == nil)
    }
}

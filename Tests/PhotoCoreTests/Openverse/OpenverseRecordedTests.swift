import Foundation
import Testing
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// Every recorded Openverse body against its answer key, field by field.
/// The keys were generated from the bodies by the people who recorded them,
/// not by this code.
@Suite struct OpenverseRecordedTests {
    @Test func thereAreRecordedBodiesToCheck() {
        #expect(OpenverseRecorded.searchBodies.count == 11)
        #expect(OpenverseRecorded.errorBodies.count == 3)
    }

    @Test(arguments: OpenverseRecorded.searchBodies)
    func searchBodyMatchesItsKey(_ file: String) throws {
        let key = try OpenverseRecorded.key(for: file)
        let results = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(file))
        #expect(results.resultCount == key["result_count"] as? Int)
        #expect(results.pageCount == key["page_count"] as? Int)
        #expect(results.pageSize == key["page_size"] as? Int)
        #expect(results.page == key["page"] as? Int)
        #expect(results.skippedResults == 0)
        #expect(results.skippedFields == 0)
        let expected = try #require(key["results"] as? [[String: Any]])
        #expect(results.images.count == key["n_results"] as? Int)
        try #require(results.images.count == expected.count)
        for (image, want) in zip(results.images, expected) {
            let label = "\(file.prefix(2)) \(image.id)"
            #expect(image.id == want["id"] as? String, "\(label)")
            #expect(image.title == (want["title"] as? String ?? ""), "\(label)")
            #expect(image.creator == want["creator"] as? String, "\(label)")
            #expect(image.license == want["license"] as? String, "\(label)")
            #expect(image.licenseVersion == want["license_version"] as? String, "\(label)")
            #expect(image.licenseURL?.absoluteString == want["license_url"] as? String, "\(label)")
            #expect(image.thumbnail?.absoluteString == want["thumbnail"] as? String, "\(label)")
            #expect(image.url?.absoluteString == want["url"] as? String, "\(label)")
            #expect(image.foreignLandingURL?.absoluteString == want["foreign_landing_url"] as? String, "\(label)")
            #expect(image.width == want["width"] as? Int, "\(label)")
            #expect(image.height == want["height"] as? Int, "\(label)")
            #expect(image.filetype == want["filetype"] as? String, "\(label)")
            #expect(image.source == want["source"] as? String, "\(label)")
            #expect(image.provider == want["provider"] as? String, "\(label)")
            #expect(image.attribution == want["attribution"] as? String, "\(label)")
        }
    }

    @Test(arguments: OpenverseRecorded.errorBodies)
    func errorBodyMatchesItsKey(_ file: String) throws {
        let key = try OpenverseRecorded.key(for: file)
        let status = try #require(key["status"] as? Int)
        let detail = try #require(key["detail"] as? String)
        let headers = try OpenverseRecorded.headers(for: file)
        let error = OpenverseError.http(
            status: status, contentType: headers["content-type"], retryAfter: headers["retry-after"],
            body: try OpenverseRecorded.data(file))
        #expect(error.description.contains("Openverse"))
        #expect(error.description.contains(detail), "the server's words: \(error.description)")
        #expect(error.description.contains("HTTP \(status)"))
    }

    @Test func recordedThrottleWithoutRetryAfterWaitsWhatItsTextSays() throws {
        let headers = try OpenverseRecorded.headers(for: OpenverseRecorded.throttled429)
        #expect(headers["retry-after"] == nil, "the recording has no Retry-After")
        let error = OpenverseError.http(status: 429, retryAfter: headers["retry-after"], body: try OpenverseRecorded.data(OpenverseRecorded.throttled429))
        #expect(error.retryAfter == .seconds(3600))
        #expect(error.description.contains("Try again in 1 hour"), "\(error.description)")
        #expect(error.isTransient)
    }

    @Test func recordedServerErrorIsTransientAndNotFoundIsNot() throws {
        let internalError = OpenverseError.http(status: 500, body: try OpenverseRecorded.data(OpenverseRecorded.internal500))
        #expect(internalError == .http(.serverError(status: 500, serverMessage: "Internal Server Error")))
        #expect(internalError.isTransient)
        let notFound = OpenverseError.http(status: 404, body: try OpenverseRecorded.data(OpenverseRecorded.notFound404))
        #expect(notFound == .http(.rejected(status: 404, serverMessage: "Not found.")))
        #expect(!notFound.isTransient)
        #expect(notFound.description.contains("--api-url"))
    }

    // MARK: - Quirks the provenance notes call out

    @Test func pageCountIsTheDepthNotResultCountOverPageSize() throws {
        let results = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(OpenverseRecorded.catPage3))
        #expect(results.resultCount == 10_000)
        let page = OpenverseProvider.page(from: results, authenticated: false)
        #expect(page.pages == 20)
        #expect(page.total == 10_000)
        // 01 claims 250 pages; anonymous callers may read 20 of them.
        let deep = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(OpenverseRecorded.catPage1))
        #expect(deep.pageCount == 250)
        #expect(OpenverseProvider.page(from: deep, authenticated: false).pages == 20)
        #expect(OpenverseProvider.page(from: deep, authenticated: true).pages == 250)
    }

    @Test func nullSizesAndAttributionDecodeAsMissing() throws {
        let results = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(OpenverseRecorded.catPage2NullSizes))
        #expect(results.images.count == 20)
        #expect(results.images.allSatisfy { $0.width == nil && $0.height == nil && $0.attribution == nil })
        let photo = OpenverseProvider.photo(from: try #require(results.images.first))
        #expect(photo.aspectRatio == nil)
        #expect(photo.credit?.license?.shortName == "CC BY 2.0")
    }

    @Test func emptyTitleIsKeptEmptyAndTagsSurvive() throws {
        let results = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(OpenverseRecorded.emptyTitle))
        let untitled = try #require(results.images.first { $0.id.hasPrefix("f53cc855") })
        #expect(untitled.title.isEmpty)
        #expect(untitled.attribution?.hasPrefix("This work by") == true)
        #expect(results.images.contains { $0.tags.contains("📍thailand") })
    }

    @Test func sourceMayDifferFromProviderAndCC0IsMarkedWith() throws {
        let nasa = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(OpenverseRecorded.nasaQuirk))
        let image = try #require(nasa.images.first { $0.id.hasPrefix("3d2c880b") })
        #expect(image.source == "nasa" && image.provider == "flickr")
        let details = OpenverseProvider.details(from: image)
        #expect(details.description.contains("Source: nasa (via flickr)"))

        let cc0 = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(OpenverseRecorded.cc0Commercial))
        #expect(cc0.images.allSatisfy { $0.licenseTerms?.shortName == "CC0 1.0" })
    }

    @Test func noResultsIsAnEmptyPageNotAnError() throws {
        let results = try OpenverseResponseDecoder.decodeSearch(try OpenverseRecorded.data(OpenverseRecorded.noResults))
        #expect(results.images.isEmpty)
        let page = OpenverseProvider.page(from: results, authenticated: false)
        #expect(page.pages == 0 && page.total == 0 && page.page == 1)
    }
}

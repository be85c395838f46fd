import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking

/// Wording of `FlickrError`, and the guarantee that the API key never
/// appears in any message or description.
@Suite struct FlickrErrorTests {
    @Test func invalidKeyNamesTheKeySettings() {
        #expect(FlickrError.api(code: 100, message: "Invalid API Key (Key has invalid format)").description
                == "Flickr rejected the API key (code 100: Invalid API Key (Key has invalid format)). Check FLICKR_API_KEY or --api-key.")
    }

    @Test func parameterlessSearchAsksForWords() {
        let text = FlickrError.api(code: 3, message: "Parameterless searches have been disabled.").description
        #expect(text.contains("code 3"))
        #expect(text.contains("Type some words"))
    }

    @Test func serviceUnavailableSuggestsTryingLater() {
        let text = FlickrError.api(code: 105, message: "Service currently unavailable").description
        #expect(text.hasPrefix("Flickr is temporarily unavailable (code 105"))
        #expect(text.contains("Try again"))
        #expect(FlickrError.api(code: 105, message: "").isTransient)
    }

    @Test func searchUnavailableSuggestsTryingLater() {
        #expect(FlickrError.api(code: 10, message: "Sorry, the Flickr search API is not currently available.").description
            .contains("Try again"))
    }

    @Test func excessiveOffsetExplainsTheCap() {
        #expect(FlickrError.api(code: 20, message: "Excessive photo offset in search").description.contains("4,000"))
    }

    @Test func unknownCodeSaysCodeAndMessage() {
        #expect(FlickrError.api(code: 18, message: "Illogical arguments").description == "Flickr error 18: Illogical arguments")
    }

    @Test func malformedResponseSaysWhatWasWrong() {
        #expect(FlickrError.malformedResponse("`photos.page` is missing.").description
                == "Flickr's answer could not be read: `photos.page` is missing.")
    }

    @Test func networkErrorsKeepTheirWording() {
        let error = FlickrError.network(.connectionRefused(host: "127.0.0.1:9"))
        #expect(error.description == NetworkError.connectionRefused(host: "127.0.0.1:9").description)
        #expect(!error.isOffline)
        #expect(FlickrError.network(.notConnected(host: "api.flickr.com")).isOffline)
    }

    @Test func redactionRemovesTheKeyFromEveryCase() {
        let key = "SECRETKEY123"
        let errors: [FlickrError] = [
            .api(code: 100, message: "bad key SECRETKEY123"),
            .malformedResponse("it begins “api_key=SECRETKEY123”"),
            .invalidRequest("SECRETKEY123"),
            .network(.other("GET /?api_key=SECRETKEY123 failed", host: "h")),
            .network(.invalidURL("x?api_key=SECRETKEY123")),
        ]
        for error in errors {
            #expect(!error.redacting(SecretRedactor(key)).description.contains(key))
            #expect(!String(reflecting: error.redacting(SecretRedactor(key))).contains(key))
        }
    }

    @Test func redactionCoversThePercentEncodedKey() {
        let error = FlickrError.malformedResponse("api_key=a%2Bb%2fc").redacting(SecretRedactor("a+b/c"))
        #expect(error.description.contains("[redacted]"))
        #expect(!error.description.contains("a%2Bb"))
    }

    @Test func providerDescriptionsHideTheKey() {
        let provider = FlickrProvider(apiKey: "SECRETKEY123", network: FlickrRequestTests.idleNetwork)
        #expect(!String(describing: provider).contains("SECRETKEY123"))
        #expect(!String(reflecting: provider).contains("SECRETKEY123"))
        var dumped = ""
        dump(provider, to: &dumped)
        #expect(!dumped.contains("SECRETKEY123"))
    }
}

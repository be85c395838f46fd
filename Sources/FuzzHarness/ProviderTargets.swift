import PhotoCore
@testable import FlickrService
import Foundation
import Networking
@testable import OpenverseService
import ShutterstockService

/// Readers of Openverse's answers, and of the query and links people type.
enum ProviderTargets {
    /// Input: an Openverse search answer (or an error body).
    static let openverse = FuzzTarget(name: "openverse", seeds: {
        [("page.json", .text(#"{"result_count":240,"page_count":12,"page_size":20,"page":1,"results":[{"id":"f9384235-b72e-4f1e-9b05-e1b116262a29","title":null,"creator":"ann","license":"by","license_version":"2.0","url":"https://example.org/a.jpg","thumbnail":"https://api.example/v1/images/x/thumb/","width":"640","height":9223372036854775808}]}"#)),
         ("detail.json", .text(#"{"detail":"Request was throttled. Expected available in 3600 seconds."}"#))]
    }, run: { data in
        let secret = "s3cr/et token"
        do throws(OpenverseError) {
            let results = try OpenverseResponseDecoder.decodeSearch(data, redacting: [secret])
            require(results.page >= 0 && results.pageCount >= 0, "negative paging: \(results.page) of \(results.pageCount)")
        } catch {
            FlickrTargets.requirePrintable(error.description)
            require(!error.description.contains(secret), "an error quoted the secret: \(error)")
        }
    })

    /// Input: a line typed at the prompt, read as a query with filters. A
    /// parsed query typed back parses to the same query.
    static let query = FuzzTarget(name: "query", seeds: {
        ["lighthouse license:cc0,pdm sort:newest", "user:\"Ana Souza\" tag:a,b tags:all", "taken:2020..banana",
         "near:91,0,40km bbox:2,50,1,52", "\"license:x\" -word", "safe:maybe type:vector orientation:round"]
            .enumerated().map { ("\($0.offset).txt", Data.text($0.element)) }
    }, run: { data in
        let line = String(decoding: data, as: UTF8.self)
        let query: SearchQuery
        do throws(QueryError) {
            guard let parsed = try SearchQuery.parse(line) else { return }
            query = parsed
        } catch {
            FlickrTargets.requirePrintable(error.description)
            return
        }
        // The round trip: what is printed (history, `/filter`) parses back to
        // the same query, text and filters; a refusal here is a broken promise.
        let typed = query.typed
        let again: SearchQuery?
        do throws(QueryError) {
            again = try SearchQuery.parse(typed)
        } catch {
            fatalError("query: \(typed.debugDescription), printed from \(line.debugDescription), is refused: \(error)")
        }
        require(again == query, "query changed when typed back: \(line.debugDescription) → \(typed.debugDescription)")
        let words = query.filters.words.joined(separator: " ")
        if !words.isEmpty {
            let filtersAgain = try? SearchQuery.parse(words)
            require(filtersAgain?.filters == query.filters, "/filter words \(words.debugDescription) read back otherwise")
        }
        for word in query.filters.words where word.hasPrefix("near:") || word.hasPrefix("bbox:") {
            require(!word.dropFirst(5).contains("e"), "a number with an exponent: \(word)")
        }
    })

    /// Input: a `Retry-After` header, and the same text as Openverse's
    /// throttle detail. Whatever it says, the wait is within the ceiling
    /// and every sentence about it is worded without trapping.
    static let retryAfter = FuzzTarget(name: "retry-after", seeds: {
        ["120", "9223372036854775807", "99999999999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT",
         "Fri, 31 Dec 9999 23:59:59 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "-5", "1e9"]
            .enumerated().map { ("\($0.offset).txt", Data.text($0.element)) }
    }, run: { data in
        let text = String(decoding: data, as: UTF8.self)
        let header = RetryPolicy.retryAfter(text, now: Date(timeIntervalSince1970: 1_700_000_000))
        let throttle = OpenverseErrorBody.throttleWait(in: "Expected available in " + text)
        for wait in [header, throttle].compactMap({ $0 }) {
            require(wait >= .zero && wait <= ServerWait.ceiling, "wait \(wait) from \(text.debugDescription)")
            let sentences = [
                OpenverseError.http(.rateLimited(retryAfter: wait, serverMessage: nil)).description,
                ShutterstockError.http(.rateLimited(retryAfter: wait, serverMessage: nil)).description,
                NetworkError.retryLater(status: 429, after: wait, host: "h").description,
            ]
            for sentence in sentences { FlickrTargets.requirePrintable(sentence) }
            require(RetryPolicy().delay(after: .retryAfter(wait), beforeRetry: 1).map { $0 <= .seconds(30) } ?? true,
                    "a wait past the policy's limit would be slept")
        }
    })

    /// Input: a line pasted at the prompt, read as a Flickr link. What it
    /// reads is an id of digits or one printable word, never a crash.
    static let link = FuzzTarget(name: "link", seeds: {
        ["https://www.flickr.com/photos/anasouza/53399526683/in/photostream/", "flic.kr/p/2oTLzNM",
         "https://m.flickr.com/photos/anasouza/albums/72157720000000003?x=1#y", "flickr.com/groups/sunsetlovers/pool/",
         "https://www.flickr.com/photos/a/galleries/72157720000000201/", "https://www.flickr.com/help/", "kittens in snow"]
            .enumerated().map { ("\($0.offset).txt", Data.text($0.element)) }
    }, run: { data in
        let line = String(decoding: data, as: UTF8.self)
        func isWord(_ text: String) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
        }
        let reading = FlickrLinkReader.read(line)
        if case .link(let link) = reading {
            // Only a line whose RFC 3986 host is Flickr's, with no user name
            // or password, is a Flickr link; and the link prints as a line
            // that reads back as the same link.
            let address = LinkAddress(line)
            require(address != nil && address?.userinfo == nil, "a link with userinfo or no address: \(line.debugDescription)")
            let host = address?.host ?? ""
            require(host.hasSuffix("flickr.com") || host.hasSuffix("flic.kr"), "host \(host.debugDescription)")
            guard let printed = FlickrLinkReader.address(of: link) else {
                fatalError("link: \(link) read from \(line.debugDescription) has no printed form")
            }
            require(FlickrLinkReader.read(printed) == reading, "\(line.debugDescription) → \(printed) reads back as \(FlickrLinkReader.read(printed))")
        }
        switch reading {
        case .notALink:
            break
        case .unsupported(let sentence):
            FlickrTargets.requirePrintable(sentence)
        case .link(.photo(let id)):
            require(!id.isEmpty && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber), "photo id \(id.debugDescription)")
        case .link(.album(let id, let owner)):
            require(!id.isEmpty && id.allSatisfy(\.isNumber), "album id \(id.debugDescription)")
            require(owner.map(isWord) ?? true, "album owner \(owner.debugDescription)")
        case .link(.person(let name)), .link(.pool(let name)):
            require(isWord(name), "name \(name.debugDescription)")
        case .link(.gallery(let url)):
            require(url.scheme == "https" || url.scheme == "http", "gallery URL \(url)")
        }
    })
}

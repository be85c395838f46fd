import FlickrKit
import FlickrService
import Foundation
import OpenverseService

/// Readers of the third provider's answers, and of the query people type.
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
        do throws(QueryError) {
            guard let query = try SearchQuery.parse(line) else { return }
            let again = try SearchQuery.parse(query.typed)
            require(again?.filters == query.filters, "filters changed when typed back: \(query.typed.debugDescription)")
        } catch {
            FlickrTargets.requirePrintable(error.description)
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
        switch FlickrLinkReader.read(line) {
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

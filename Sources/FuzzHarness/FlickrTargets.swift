import Foundation
@testable import PhotoCore
@testable import FlickrService
@testable import ShutterstockService

/// The readers of what servers send: Flickr's JSON, JSONP and XML formats,
/// its getInfo/getSizes answers, and Shutterstock's search and error bodies.
/// Scripts/fuzz seeds them with the recorded real answers in Tests/.
enum FlickrTargets {
    /// The recorded real answers of Flickr and Shutterstock.
    static let recorded = "Tests/PhotoCoreTests/Recorded"

    static let json = FuzzTarget(name: "flickr-json", recorded: ["\(recorded)/bodies/*.json"], seeds: {
        [("stat-fail.json", .text(#"{"stat":"fail","code":100,"message":"Invalid API Key"}"#)),
         ("nested.json", .text(#"{"photos":{"page":"1","pages":2,"total":"","photo":[{"id":"1","secret":"s","server":"2","title":{"_content":"\u00e9\ud83d\ude00"}}]},"stat":"ok"}"#))]
    }, run: { data in
        _ = try? JSONReader.read(data)
        readPage(data)
    })

    static let jsonp = FuzzTarget(name: "flickr-jsonp", recorded: ["\(recorded)/bodies/*.jsonp"], seeds: {
        [("callback.jsonp", .text(#"jsonFlickrApi({"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[]},"stat":"ok"});"#)),
         ("custom.jsonp", .text(#"  my.cb_1 ( {"stat":"fail","code":"105","message":"Service currently unavailable"} ) ; "#))]
    }, run: { data in
        _ = try? FlickrResponseDecoder.unwrapJSONP(data)
        readPage(data)
        _ = try? FlickrDetailsDecoder.decodeInfo(data)
    })

    static let xml = FuzzTarget(name: "flickr-xml", recorded: ["\(recorded)/bodies/*.xml"], seeds: {
        [("fail.xml", .text(#"<?xml version="1.0" encoding="utf-8" ?><rsp stat="fail"><err code="100" msg="Invalid API Key" /></rsp>"#)),
         ("page.xml", .text(#"<rsp stat="ok"><photos page="1" pages="1" perpage="1" total="1"><photo id="1" secret="s" server="2" title="a &amp; b" /></photos></rsp>"#))]
    }, run: { data in
        _ = try? FlickrXMLReader.read(data)
        readPage(data)
    })

    static let details = FuzzTarget(name: "flickr-details", recorded: ["\(recorded)/bodies/09-*.jsonp", "\(recorded)/bodies/11-2_*.xml"], seeds: {
        [("sizes.json", .text(#"{"sizes":{"canblog":0,"size":[{"label":"Large Square","width":150,"height":"150","source":"https://live.staticflickr.com/1/2_s_q.jpg","media":"photo"},{"label":"Original","width":4000,"height":3000,"source":"https://live.staticflickr.com/1/2_o.jpg","media":"video"}]},"stat":"ok"}"#)),
         ("sizes.xml", .text(#"<rsp stat="ok"><sizes canblog="0"><size label="Medium 640" width="640" height="480" source="https://live.staticflickr.com/1/2_s_z.jpg" media="photo"/></sizes></rsp>"#)),
         ("info.xml", .text(#"<rsp stat="ok"><photo id="2" secret="s" server="1" views="7" license="4"><owner nsid="1@N00" username="u" realname="R" path_alias="p"/><title>T</title><description>a &lt;b&gt;bold&lt;/b&gt; &amp;amp;</description><dates posted="1300000000" taken="2011-01-01 00:00:00"/><tags><tag raw="Cat Face">catface</tag></tags><urls><url type="photopage">https://www.flickr.com/photos/p/2/</url></urls></photo></rsp>"#)),
         ("info.json", .text(#"{"photo":{"id":"2","owner":{"nsid":"1@N00"},"title":{"_content":"T"},"description":{"_content":"<a href=\"x\">link</a>"},"dates":{"posted":"1300000000"},"tags":{"tag":[{"raw":"","_content":"cat"}]}},"stat":"ok"}"#))]
    }, run: { data in
        do throws(FlickrError) { _ = try FlickrDetailsDecoder.decodeInfo(data) } catch { requirePrintable(error.description) }
        do throws(FlickrError) { _ = try FlickrDetailsDecoder.decodeSizes(data) } catch { requirePrintable(error.description) }
        _ = try? FlickrResponseDecoder.checkSuccess(data)
    })

    static let shutterstock = FuzzTarget(name: "shutterstock", recorded: ["\(recorded)/shutterstock/*.json", "\(recorded)/shutterstock/*.html"], seeds: {
        [("errors.json", .text(#"{"message":"Bad request","errors":[{"code":"VALIDATION","message":"bad sort","path":"sort"}]}"#)),
         ("page.html", .text("<html><head><title>Oops</title></head><body><h1>Bad <b>gateway</b></h1></body></html>"))]
    }, run: { data in
        let secret = "s3cr/et key"
        if case .failure(let error) = Result(catching: { () throws(ShutterstockError) in
            try ShutterstockResponseDecoder.decodeSearch(data, redacting: [secret])
        }) {
            require(!String(describing: error).contains(secret), "an error quoted the secret: \(error)")
        }
        for contentType in ["application/json", "text/html", nil] {
            let message = ShutterstockResponseDecoder.serverMessage(in: data, contentType: contentType, redacting: [secret])
            require(message?.contains(secret) != true, "a server message kept the secret: \(message ?? "")")
        }
    })

    /// Decodes a page; an error's message is quoted on screens and in logs,
    /// so it must hold no control characters from the response.
    private static func readPage(_ data: Data) {
        do throws(FlickrError) {
            _ = try FlickrResponseDecoder.decode(data)
        } catch {
            requirePrintable(error.description)
        }
    }

    static func requirePrintable(_ message: String) {
        let control = message.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        require(control == nil, "an error message holds control character \(control.map { String($0.value, radix: 16) } ?? ""): \(message.debugDescription)")
    }
}

@testable import FlickrService
import Foundation
import Sandbox
import Testing

/// One REST call answered in Flickr's three formats: XML (`format=rest`),
/// JSON (`nojsoncallback=1`) and JSONP (`jsonFlickrApi(…)` and a named
/// callback), each fetched over loopback. The JSONP bodies are checked to
/// wrap exactly the JSON body.
struct FormatAnswers {
    /// The `<rsp>` element.
    let xml: FlickrXMLReader.Element
    let json: [String: Any]

    var xmlOK: Bool { xml.attributes["stat"] == "ok" }

    /// The first child of `<rsp>` named `name`.
    func element(_ name: String) -> FlickrXMLReader.Element? { xml.children(named: name).first }

    /// Ids of the `<photo>`s under the XML `container` and the JSON one.
    func photoIDs(_ container: String) -> (xml: [String], json: [String]) {
        let xmlIDs = element(container)?.children(named: "photo").compactMap { $0.attributes["id"] } ?? []
        let list = (json[container] as? [String: Any])?["photo"] as? [[String: Any]] ?? []
        return (xmlIDs, list.compactMap { $0["id"] as? String })
    }

    /// The `<err>` code and message, and JSON's `code` and `message`.
    var failure: (xml: (code: String?, message: String?), json: (code: Int?, message: String?)) {
        let err = xml.children(named: "err").first
        return ((err?.attributes["code"], err?.attributes["msg"]), (json["code"] as? Int, json["message"] as? String))
    }
}

extension SandboxServer {
    func answers(_ method: String, _ parameters: [String: String] = [:]) async throws -> FormatAnswers {
        let base = parameters.merging(["method": method, "api_key": "test"]) { $1 }
        let xml = try await http(.GET, rest(base.merging(["format": "rest"]) { $1 }))
        let json = try await http(.GET, rest(base.merging(["format": "json", "nojsoncallback": "1"]) { $1 }))
        let jsonp = try await http(.GET, rest(base.merging(["format": "json"]) { $1 }))
        let named = try await http(.GET, rest(base.merging(["format": "json", "jsoncallback": "handle_it"]) { $1 }))
        #expect(xml.headers.first(name: "Content-Type")?.hasPrefix("text/xml") == true)
        #expect(json.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
        #expect(jsonp.headers.first(name: "Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(jsonp.text == "jsonFlickrApi(" + json.text + ")", "JSONP of \(method)")
        #expect(named.text == "handle_it(" + json.text + ")", "named JSONP of \(method)")
        let root = try FlickrXMLReader.parse(xml.body)
        #expect(root.name == "rsp")
        return FormatAnswers(xml: root, json: try json.json())
    }
}

/// Expects Flickr's failure `code`/`message` in XML and JSON.
func expectFailure(_ answers: FormatAnswers, code: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(answers.xml.attributes["stat"] == "fail", sourceLocation: sourceLocation)
    #expect(answers.failure.xml.code == String(code) && answers.failure.xml.message == message,
            "\(answers.failure.xml)", sourceLocation: sourceLocation)
    #expect(answers.json["stat"] as? String == "fail", sourceLocation: sourceLocation)
    #expect(answers.failure.json.code == code && answers.failure.json.message == message,
            "\(answers.failure.json)", sourceLocation: sourceLocation)
}

/// `{"_content": …}`'s text.
func content(_ value: Any?) -> String? { (value as? [String: Any])?["_content"] as? String }

extension Catalog {
    func ids(_ indexes: some Sequence<Int>) -> [String] { indexes.map { photo(at: $0).id } }
}

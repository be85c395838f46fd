import PhotoCore
import Foundation
import Networking
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Flickr's XML ("REST") format into the same tree as its JSON format,
/// following Flickr's documented mapping: attributes become string members,
/// non-blank text becomes `_content`, and child elements are grouped by name
/// into arrays (a single child is still a one-element array).
///
/// `<rsp stat="ok"><photos page="1" …><photo id="…"/></photos></rsp>` becomes
/// `{"stat":"ok","photos":[{"page":"1",…,"photo":[{"id":"…"}]}]}`.
enum FlickrXMLReader {
    /// The tree under the root element, whose attributes (`stat`) sit at the top.
    static func read(_ data: Data) throws(FlickrError) -> (rootName: String, value: WireValue) {
        let root = try parse(data)
        return (root.name, root.wireValue)
    }

    /// The document's element tree, as written: names, attributes, text.
    static func parse(_ data: Data) throws(FlickrError) -> Element {
        // Foundation's XMLParser on Linux traps (takes the process down) on
        // an element name that is not UTF-8, such as `<\u{FF}\u{FF},`. Flickr's
        // XML is UTF-8, so anything else is refused before it gets there.
        guard String(data: data, encoding: .utf8) != nil else {
            throw .malformedResponse("the XML response is not valid UTF-8; it begins “\(ResponseExcerpt.make(data))”.")
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: paddingEmptyProcessingInstructions(data))
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        let error = parser.parserError.map { $0 as NSError } ?? builder.failure
        guard parsed, error == nil, builder.unbalanced == nil, builder.stack.isEmpty, let root = builder.root else {
            let reason: String
            if let error {
                reason = "parser error \(error.code) at line \(parser.lineNumber), column \(parser.columnNumber)"
            } else if let unbalanced = builder.unbalanced {
                reason = unbalanced
            } else if let open = builder.stack.last {
                reason = "<\(ResponseExcerpt.make(open.name, limit: 30))> is never closed"
            } else {
                reason = "no root element"
            }
            throw .malformedResponse(
                "the response is not well-formed XML (\(reason)); it begins “\(ResponseExcerpt.make(data))”.")
        }
        return root
    }

    /// Foundation's XMLParser on Linux crashes on a processing instruction
    /// without data, `<?name?>`: it reads the data, which libxml2 leaves
    /// null, as a C string. A space before the `?>` gives it empty data
    /// instead and changes nothing else the reader keeps (a literal `<?`
    /// outside a comment or CDATA is always an instruction).
    static func paddingEmptyProcessingInstructions(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let question = UInt8(ascii: "?"), close = UInt8(ascii: ">")
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard index < bytes.count, bytes[index] == question else { continue }
            var end = index + 1
            while end < bytes.count, ![question, close, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[end]) { end += 1 }
            guard end + 1 < bytes.count, bytes[end] == question, bytes[end + 1] == close else { continue }
            output.append(contentsOf: bytes[copied..<end])
            output.append(0x20)
            copied = end
            index = end
        }
        guard copied > 0 else { return data }
        output.append(contentsOf: bytes[copied...])
        return Data(output)
    }

    /// One element of the document.
    final class Element {
        let name: String
        let attributes: [String: String]
        fileprivate(set) var children: [Element] = []
        /// The element's own text (CDATA included), not its children's.
        fileprivate(set) var text = ""

        fileprivate init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        /// The child elements called `name`, in document order.
        func children(named name: String) -> [Element] {
            children.filter { $0.name == name }
        }

        var wireValue: WireValue {
            var members: [String: WireValue] = [:]
            for (key, value) in attributes { members[key] = .string(value) }
            var grouped: [String: [WireValue]] = [:]
            for child in children { grouped[child.name, default: []].append(child.wireValue) }
            for (key, values) in grouped { members[key] = .array(values) }
            let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !content.isEmpty { members["_content"] = .string(text) }
            return .object(members)
        }
    }

    /// `XMLParser` delegate that keeps a stack of open elements. Used on one
    /// thread, for one parse, and then dropped.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?
        var failure: NSError?
        /// Set when a closing tag does not match the open element.
        var unbalanced: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            let element = Element(name: elementName, attributes: attributeDict)
            stack.last?.children.append(element)
            if stack.isEmpty { root = element }
            stack.append(element)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?
        ) {
            guard let open = stack.popLast(), open.name == elementName else {
                if unbalanced == nil {
                    unbalanced = "</\(ResponseExcerpt.make(elementName, limit: 30))> closes an element that is not open"
                }
                return
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if failure == nil { failure = parseError as NSError }
        }
    }
}

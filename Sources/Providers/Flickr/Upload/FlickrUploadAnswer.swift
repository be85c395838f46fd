import Foundation
import Networking
import PhotoCore

/// Reads the upload endpoint's answer: `<rsp stat="ok"><photoid>ID</photoid></rsp>`,
/// or its `fail` form with Flickr's code and message.
enum FlickrUploadAnswer {
    static func photoID(_ data: Data) throws(FlickrError) -> String {
        let root = try FlickrResponseDecoder.readTree(data)
        try FlickrResponseDecoder.checkStatus(root)
        let element = FlickrResponseDecoder.first(root["photoid"])
        let id = (element?["_content"]?.lenientString ?? element?.lenientString ?? "").trimmingCharacters(in: .whitespaces)
        // A photo id goes into a link and the record: digits only, as Flickr's are.
        guard !id.isEmpty, id.count <= 32, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .malformedResponse("the upload's answer has no photo id; it begins “\(ResponseExcerpt.make(data))”.")
        }
        return id
    }
}

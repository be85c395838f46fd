import Foundation
import Networking

/// The multipart form of one upload (`POST …/services/upload/`): the text
/// fields, then the photo. Only the text fields are signed; the photo part
/// is read from the disk as it is sent.
public struct FlickrUploadForm: Sendable {
    /// The text fields in the order sent, as the signature covers them.
    public var fields: [(String, String)]
    public var filePath: String
    public var fileLength: Int
    /// The name the photo part carries (Flickr keeps it as the original's name).
    public var fileName: String
    /// The file's format as Flickr names an original's (`jpg`, `png`, `gif`),
    /// when known: one sign that a listed photo is this one (see `lostUpload`).
    public var originalFormat: String?
    let boundary: String

    public init(fields: [(String, String)], filePath: String, fileLength: Int, fileName: String, originalFormat: String? = nil,
                boundary: String = "flickr-upload-" + OAuthSigner.randomNonce()) {
        self.fields = fields
        self.filePath = filePath
        self.fileLength = fileLength
        self.fileName = Self.dispositionName(fileName)
        self.originalFormat = originalFormat
        self.boundary = boundary
    }

    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The fields and part headers in memory, the photo streamed from its file.
    public var body: NetworkManager.StreamedBody {
        var head: [UInt8] = []
        for (name, value) in fields {
            head += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8)
            head += Array(value.utf8) + Array("\r\n".utf8)
        }
        head += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(fileName)\"\r\n".utf8)
        head += Array("Content-Type: application/octet-stream\r\n\r\n".utf8)
        return NetworkManager.StreamedBody([
            .bytes(head), .file(path: filePath, length: fileLength), .bytes(Array("\r\n--\(boundary)--\r\n".utf8)),
        ])
    }

    /// A file name that cannot end its quoted header value or start a new
    /// header line: no quotes, backslashes or control characters.
    static func dispositionName(_ name: String) -> String {
        let kept = name.unicodeScalars.filter { scalar in
            scalar != "\"" && scalar != "\\" && scalar.properties.generalCategory != .control
                && scalar.properties.generalCategory != .lineSeparator && scalar.properties.generalCategory != .paragraphSeparator
        }
        let text = String(String.UnicodeScalarView(kept))
        return text.isEmpty ? "photo" : text
    }
}

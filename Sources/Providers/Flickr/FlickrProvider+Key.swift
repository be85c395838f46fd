import PhotoCore
import Foundation
import Networking

extension FlickrProvider {
    /// The API key chosen by `--api-key` (given as `option`) or, without it,
    /// by `FLICKR_API_KEY`; `nil` when neither is set (the sandbox then
    /// stands in). Surrounding white space, as a paste leaves it, is dropped.
    ///
    /// - Throws: `.invalidRequest` naming the setting when it is set but
    ///   empty, or holds control characters, rather than quietly falling
    ///   back to the sandbox or sending a key Flickr will refuse.
    public static func apiKey(option: String?, environment: [String: String]) throws(FlickrError) -> String? {
        let (value, source): (String, String)
        if let option {
            (value, source) = (option, "--api-key")
        } else if let variable = environment["FLICKR_API_KEY"] {
            (value, source) = (variable, "FLICKR_API_KEY")
        } else {
            return nil
        }
        let key = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else {
            let fix = source == "--api-key"
                ? "Pass your Flickr API key, or leave --api-key out to use the embedded sandbox."
                : "Set it to your Flickr API key, or unset it to use the embedded sandbox."
            throw .invalidRequest("\(source) is empty. \(fix)")
        }
        guard !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidRequest("\(source) contains control characters; a Flickr API key is letters and digits. Check how it was pasted.")
        }
        return key
    }
}

import Foundation
import Networking
import PhotoCore

/// Finding the photo an upload made when its answer never came back.
///
/// Flickr keeps a photo once the whole form has arrived, whatever becomes of
/// the answer: a 503 from a proxy, a connection cut or stalled on the way
/// back. Sending again then makes a second copy. So before sending again,
/// and before giving up, the person's newest photos are searched for one the
/// lost attempt made: uploaded since it began, with the title and privacy it
/// sent, of the file's format, and not a photo the record already knows.
extension FlickrOAuth {
    /// How much earlier than the attempt a photo it made may be dated:
    /// this machine's clock and Flickr's may disagree by a few minutes.
    static let lostUploadClockSlack: TimeInterval = 300
    /// Photos looked at: those uploaded in the last minutes, newest first.
    static let lostUploadPageSize = 100

    /// The id of the photo an attempt that began at `began` made of `form`,
    /// or nil when none of the person's photos since then is it.
    func lostUpload(
        of form: FlickrUploadForm, since began: Date, excluding known: Set<String>, account: FlickrAccount
    ) async throws(FlickrAccountError) -> String? {
        let since = max(0, Self.unixSeconds(began) - Int(Self.lostUploadClockSlack))
        let root = try await signedCall(method: "flickr.people.getPhotos", parameters: [
            ("user_id", "me"), ("min_upload_date", String(since)), ("extras", "date_upload,original_format"),
            ("per_page", String(Self.lostUploadPageSize)), ("page", "1"),
        ], account: account)
        let entries: [WireValue] = switch FlickrResponseDecoder.first(root["photos"])?["photo"] {
        case .array(let values)?: values
        case let single?: [single]
        case nil: []
        }
        return entries.first { Self.isLostUpload($0, of: form, since: since, excluding: known) }
            .flatMap { FlickrResponseDecoder.nonEmpty($0["id"]) }
    }

    /// Whether a listed photo is what `form` would have made: every sign
    /// Flickr gives back agrees (its id is new to us and a photo id, it was
    /// uploaded after `since`, its title and the three privacy flags are the
    /// ones sent, and its original format is the file's when both are known).
    static func isLostUpload(_ entry: WireValue, of form: FlickrUploadForm, since: Int, excluding known: Set<String>) -> Bool {
        guard let id = FlickrResponseDecoder.nonEmpty(entry["id"]), id.count <= 32,
              id.allSatisfy({ $0.isASCII && $0.isNumber }), !known.contains(id),
              let uploaded = entry["dateupload"]?.lenientInteger, uploaded >= since
        else { return false }
        let sent = Dictionary(form.fields, uniquingKeysWith: { first, _ in first })
        let title = entry["title"]?.lenientString ?? ""
        guard title.trimmingCharacters(in: .whitespaces) == (sent["title"] ?? "").trimmingCharacters(in: .whitespaces) else {
            return false
        }
        for flag in ["ispublic", "isfriend", "isfamily"] {
            let asked = sent["is_" + flag.dropFirst(2)] == "1" ? 1 : 0
            guard (entry[flag]?.lenientInteger ?? -1) == asked else { return false }
        }
        if let expected = form.originalFormat, let format = entry["originalformat"]?.lenientString, !format.isEmpty {
            let told = format.lowercased() == "jpeg" ? "jpg" : format.lowercased()
            guard told == expected else { return false }
        }
        return true
    }

    /// Seconds since 1970, saturated (a clock far off must not trap).
    static func unixSeconds(_ date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), Double(Int32.max) * 4))
    }
}

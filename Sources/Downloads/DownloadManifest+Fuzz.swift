import Foundation
import PhotoCore

/// Readers of the download folder's own files, offered to Scripts/fuzz.
public enum DownloadFuzzEntries {
    /// The manifest's reader for Scripts/fuzz: a folder's
    /// `.flickr-manifest.json` may come from anywhere (a copied or shared
    /// folder, a damaged disk). Whatever it reads must write back, and read
    /// back the same.
    public static let manifest = FuzzEntry(name: "manifest", seeds: {
        let record = #""provider":"flickr","id":"53279607047","file":"53279607047_dead10e111_q.jpg","bytes":60123"#
        let stamp = #"{"files":[{"bytes":3677,"modified":1795804732.859103},{"bytes":1245,"modified":1795804732.86}],"inputs":"8a26de1217dbb7a49dcafaac09c9eb61"}"#
        return [
            ("rerun.json", Data(#"{"credits":\#(stamp),"files":{"53279607047_dead10e111_q":{\#(record),"modified":1795804732.5,"sha256":"0f0f","sidecars":\#(stamp)}},"version":1}"#.utf8)),
            ("odd.json", Data(#"{"files":{"a":{\#(record),"modified":1e308},"b":{"provider":"","id":"\u0000","bytes":-0}},"version":9223372036854775807}"#.utf8)),
        ]
    }, check: { data in
        guard let contents = DownloadManifest.decoded(data) else { return nil }
        guard let written = try? DownloadManifest.encoded(contents) else { return "a manifest that was read cannot be written back" }
        guard DownloadManifest.decoded(written) == contents else { return "a manifest read, written and read again changed" }
        return nil
    })
}

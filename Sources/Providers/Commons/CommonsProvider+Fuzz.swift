import PhotoCore
import Foundation

extension CommonsProvider {
    /// Commons' reader for Scripts/fuzz: any api.php answer (a search, an
    /// error, anything) decodes or fails in printable words, and every file
    /// becomes a photo with an id.
    public static let fuzzEntries = [
        FuzzEntry(name: "commons", recorded: ["Tests/CommonsTests/Recorded/*.json"], seeds: {
            [("search.json", Data(#"{"batchcomplete":"","continue":{"gsroffset":20,"continue":"gsroffset||"},"query":{"pages":{"12":{"pageid":12,"ns":6,"title":"File:A b.jpg","index":2,"imageinfo":[{"url":"https://upload.example/a.jpg","width":"9223372036854775808","height":0,"mime":"image/jpeg","thumburl":"https://upload.example/t.jpg","thumbwidth":500,"extmetadata":{"Artist":{"value":"<a href=\"x\">Ann</a>&amp;\u001b[2J"},"LicenseShortName":{"value":"CC BY-SA 4.0"}}}]}}}}"#.utf8)),
             ("maxlag.json", Data(#"{"error":{"code":"maxlag","info":"Waiting for db: 9223372036854775807 seconds lagged.","lag":1e308}}"#.utf8))]
        }, check: { data in
            do throws(CommonsError) {
                guard case .answer(let answer) = try CommonsResponseDecoder.decode(data) else { return nil }
                // Titles, HTML artists, licences and sizes from a hostile
                // answer (the view sanitises the text later).
                for file in answer.files where photo(from: file).id.isEmpty {
                    return "a file became a photo without an id"
                }
                return nil
            } catch {
                return FuzzEntry.unprintable(error.description)
            }
        }),
    ]
}

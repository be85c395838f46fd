import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// Who may see a listed photo, as Flickr's `ispublic`, `isfriend` and
/// `isfamily` say, kept on the photo and in the saved session.
@Suite struct FlickrVisibilityTests {
    private func photo(_ flags: String) throws -> Photo {
        let text = #"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"1","owner":"9@N00","secret":"abc","server":"7","title":"t"\#(flags)}]},"stat":"ok"}"#
        return try #require(try FlickrResponseDecoder.decode(Data(text.utf8)).page.photos.first)
    }

    @Test(arguments: [
        (#","ispublic":1,"isfriend":0,"isfamily":0"#, "public"),
        (#","ispublic":0,"isfriend":0,"isfamily":0"#, "private"),
        (#","ispublic":0,"isfriend":1,"isfamily":0"#, "friends"),
        (#","ispublic":"0","isfriend":"0","isfamily":"1""#, "family"),
        (#","ispublic":0,"isfriend":1,"isfamily":1"#, "friends-family"),
    ])
    func listedFlagsBecomeTheVisibility(flags: String, name: String) throws {
        let visibility = try #require(try photo(flags).visibility)
        #expect(visibility.name == name)
        #expect(visibility.isRestricted == (name != "public"))
    }

    @Test func withoutFlagsTheVisibilityIsUnknown() throws {
        #expect(try photo("").visibility == nil)
    }

    @Test func theSessionKeepsTheVisibility() throws {
        let listed = try photo(#","ispublic":0,"isfriend":1,"isfamily":0"#)
        let restored = try JSONDecoder().decode(Photo.self, from: try JSONEncoder().encode(listed))
        #expect(restored.visibility == listed.visibility && restored.visibility?.name == "friends")
    }
}

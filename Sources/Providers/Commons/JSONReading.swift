import PhotoCore
import Foundation

// The core's one JSON reader, under the names this module reads it by.
typealias WireValue = FlickrWireValue

enum JSONReading {
    static func read(_ data: Data) throws(FlickrJSONReader.Failure) -> WireValue {
        try FlickrJSONReader.read(data)
    }
}

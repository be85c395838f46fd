import PhotoCore
import Foundation

// The core's one JSON reader, under the name this module reads it by.
enum JSONReading {
    static func read(_ data: Data) throws(JSONReader.Failure) -> WireValue {
        try JSONReader.read(data)
    }
}

import Foundation

/// `flickr.photos.search`'s narrowing parameters, applied to the catalog as
/// Flickr applies them: `license` (ids), `min/max_taken_date` (MySQL
/// datetimes or unix seconds), `min/max_upload_date`, `bbox`, and
/// `lat`/`lon`/`radius` (km by default, as `radius_units` says).
struct FlickrSearchFilter {
    var licenses: Set<Int>?
    var takenFrom: String?
    var takenTo: String?
    var uploadFrom: Int?
    var uploadTo: Int?
    var box: (minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)?
    var circle: (lat: Double, lon: Double, km: Double)?

    /// `nil` with Flickr's complaint when a value is unreadable.
    init(_ value: (String) -> String?) throws(Refusal) {
        if let text = value("license"), !text.isEmpty {
            let ids = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard ids.allSatisfy({ $0 != nil }) else { throw Refusal(code: 18, message: "Illogical arguments") }
            licenses = Set(ids.compactMap { $0 })
        }
        takenFrom = value("min_taken_date").flatMap(Self.datetime)
        takenTo = value("max_taken_date").flatMap(Self.datetime)
        uploadFrom = value("min_upload_date").flatMap(Self.unixSeconds)
        uploadTo = value("max_upload_date").flatMap(Self.unixSeconds)
        if let text = value("bbox") {
            let numbers = text.split(separator: ",").compactMap { Double($0) }
            guard numbers.count == 4, numbers[0] < numbers[2], numbers[1] < numbers[3] else {
                throw Refusal(code: 18, message: "Illogical arguments")
            }
            box = (numbers[0], numbers[1], numbers[2], numbers[3])
        }
        if let lat = value("lat").flatMap(Double.init), let lon = value("lon").flatMap(Double.init) {
            var km = value("radius").flatMap(Double.init) ?? 5
            if value("radius_units") == "mi" { km *= 1.609 }
            circle = (lat, lon, min(km, 32))
        }
    }

    struct Refusal: Error {
        let code: Int
        let message: String
    }

    var isEmpty: Bool {
        licenses == nil && takenFrom == nil && takenTo == nil && uploadFrom == nil && uploadTo == nil
            && box == nil && circle == nil
    }

    func admits(_ photo: CatalogPhoto) -> Bool {
        if let licenses, !licenses.contains(photo.license) { return false }
        if let takenFrom, photo.dateTaken < takenFrom { return false }
        if let takenTo, photo.dateTaken > takenTo { return false }
        if let uploadFrom, photo.dateUpload < uploadFrom { return false }
        if let uploadTo, photo.dateUpload > uploadTo { return false }
        if box != nil || circle != nil {
            guard let place = photo.place else { return false }
            if let box, !(box.minLon...box.maxLon).contains(place.lon) || !(box.minLat...box.maxLat).contains(place.lat) {
                return false
            }
            if let circle, Self.kilometres(from: (circle.lat, circle.lon), to: place) > circle.km { return false }
        }
        return true
    }

    /// `YYYY-MM-DD HH:MM:SS` (also without the time) as it sorts; unix
    /// seconds are turned into that form.
    private static func datetime(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        guard trimmed.count >= 10 else { return nil }
        return trimmed.count == 10 ? trimmed + " 00:00:00" : trimmed
    }

    /// Unix seconds, or a MySQL datetime read as UTC.
    private static func unixSeconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = trimmed.count == 10 ? "yyyy-MM-dd" : "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: trimmed).map { Int($0.timeIntervalSince1970) }
    }

    private static func kilometres(from a: (Double, Double), to b: (lat: Double, lon: Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.lat - a.0) * radians
        let dLon = (b.lon - a.1) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.lat * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371 * 2 * atan2(h.squareRoot(), (1 - h).squareRoot())
    }
}

extension CatalogPhoto {
    /// Where the photo was taken: two in three photos carry a place, spread
    /// over the inhabited latitudes, the same for the same photo every run.
    var place: (lat: Double, lon: Double)? {
        var random = SplitMix64(seed: StableHash.hash(id, seed: 0x6E0))
        guard random.chance(0.67) else { return nil }
        let lat = Double(random.below(12_000)) / 100 - 55
        let lon = Double(random.below(36_000)) / 100 - 180
        return (lat, lon)
    }
}

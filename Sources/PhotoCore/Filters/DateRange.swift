import Foundation

/// `taken:2020..2022`, `uploaded:2024-01..`, `taken:2021-06-15`: a period
/// from the start of one date to the end of another, either end open.
public struct DateRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A year, a month or a day.
    public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
        public var year: Int
        public var month: Int?
        public var day: Int?

        /// `2020`, `2020-05`, `2020-05-17`; `nil` for anything else or an
        /// impossible date.
        public init?(_ text: Substring) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...3).contains(parts.count), parts[0].count == 4,
                  parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let year = Int(parts[0]), (1800...9999).contains(year)
            else { return nil }
            self.year = year
            if parts.count > 1 {
                guard parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month) else { return nil }
                self.month = month
            }
            if parts.count > 2 {
                guard parts[2].count == 2, let day = Int(parts[2]), let month,
                      (1...Self.days(in: month, of: year)).contains(day)
                else { return nil }
                self.day = day
            }
        }

        public var description: String {
            var text = String(format: "%04d", year)
            if let month { text += String(format: "-%02d", month) }
            if let day { text += String(format: "-%02d", day) }
            return text
        }

        /// The first day of the period, as `YYYY-MM-DD`.
        public var firstDay: String {
            String(format: "%04d-%02d-%02d", year, month ?? 1, day ?? 1)
        }

        /// The last day of the period, as `YYYY-MM-DD`.
        public var lastDay: String {
            let month = self.month ?? 12
            return String(format: "%04d-%02d-%02d", year, month, day ?? Self.days(in: month, of: year))
        }

        /// Midnight UTC at the start of the period.
        public var start: Date { Self.date(firstDay) }

        /// Midnight UTC after the period's last day.
        public var end: Date { Self.date(lastDay).addingTimeInterval(86_400) }

        static func days(in month: Int, of year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        private static func date(_ day: String) -> Date {
            let parts = day.split(separator: "-").compactMap { Int($0) }
            var components = DateComponents()
            components.calendar = Calendar(identifier: .gregorian)
            components.timeZone = TimeZone(identifier: "UTC")
            (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
            return components.date ?? Date(timeIntervalSince1970: 0)
        }
    }

    public var from: Point?
    public var to: Point?

    /// `A..B`, `A..`, `..B`, or one date meaning its whole period; `nil`
    /// for anything else, for a range with neither end, or one that ends
    /// before it starts.
    public init?(_ text: Substring) {
        if let dots = text.range(of: "..") {
            let (left, right) = (text[..<dots.lowerBound], text[dots.upperBound...])
            from = left.isEmpty ? nil : Point(left)
            to = right.isEmpty ? nil : Point(right)
            guard left.isEmpty || from != nil, right.isEmpty || to != nil, from != nil || to != nil else { return nil }
        } else {
            guard let point = Point(text) else { return nil }
            (from, to) = (point, point)
        }
        if let from, let to, from.start >= to.end { return nil }
    }

    public var description: String {
        if let from, let to, from == to { return from.description }
        return (from?.description ?? "") + ".." + (to?.description ?? "")
    }

    /// As a header shows it: `2020–2022`, `since 2024-01`, `until 2022`.
    public var label: String {
        switch (from, to) {
        case let (from?, to?) where from == to: from.description
        case let (from?, to?): "\(from)–\(to)"
        case let (from?, nil): "since \(from)"
        case let (nil, to?): "until \(to)"
        case (nil, nil): "any time"
        }
    }
}

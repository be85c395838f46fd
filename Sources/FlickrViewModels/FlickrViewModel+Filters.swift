import Binding
import PhotoCore
import Foundation

/// `/filter`: the filters searches use until changed.
extension FlickrViewModel {
    /// `/filter` shows the filters, `/filter license:cc0 sort:newest` adds
    /// (a filter named again replaces its value), `/filter clear` removes
    /// them. A change applies from the next Enter: the shown search starts
    /// again from page 1 with the new filters.
    public func filter(_ argument: String?) {
        guard let argument, !argument.trimmingCharacters(in: .whitespaces).isEmpty else {
            noticeSource.value = .info(standingFilters.isEmpty
                ? "No filters. /filter license:cc0 adds one; filters can also be typed with the words (lighthouse sort:newest)."
                : "Filters: \(standingFilters.words.joined(separator: " ")) (\(standingFilters.summary)). /filter clear removes them.")
            return
        }
        if argument.trimmingCharacters(in: .whitespaces).lowercased() == "clear" {
            standingFilters = SearchFilters()
            noticeSource.value = .info("Filters cleared." + pendingChangeHint)
            return
        }
        let parsed: SearchQuery?
        do {
            parsed = try SearchQuery.parse(argument)
        } catch {
            noticeSource.value = .error(error.description)
            return
        }
        guard let parsed, parsed.text.isEmpty else {
            noticeSource.value = .error("/filter takes filters such as license:cc0 or sort:newest; type search words at the prompt.")
            return
        }
        standingFilters = standingFilters.merging(parsed.filters)
        noticeSource.value = .info("Filters: \(standingFilters.summary)." + pendingChangeHint)
    }

    /// Filter names and values Tab completes inside a line.
    public nonisolated static var filterCompletions: [String] {
        var words: [String] = []
        words += LicenseFilter.allCases.map { "license:\($0.rawValue)" }
        words += SortFilter.allCases.map { "sort:\($0.rawValue)" }
        words += ["taken:", "uploaded:", "user:", "tag:", "tags:all", "near:", "bbox:"]
        words += ContentType.allCases.map { "type:\($0.rawValue)" }
        words += Orientation.allCases.map { "orientation:\($0.rawValue)" }
        words += ["safe:on", "safe:off"]
        return words
    }

    /// When the filters changed since the shown search, starts it again with
    /// them (Enter's next page after `/filter`). Returns whether it did.
    func refilterCurrentSearch() -> Bool {
        guard case .search(let shown)? = query.value, shown.filters != standingFilters,
              let refiltered = shown.with(filters: standingFilters)
        else { return false }
        start(.search(refiltered))
        return true
    }

    private var pendingChangeHint: String {
        guard case .search(let shown)? = query.value, shown.filters != standingFilters else { return "" }
        return " Enter searches \(shown.text.isEmpty ? "again" : "“\(shown.text)” again") with them."
    }
}

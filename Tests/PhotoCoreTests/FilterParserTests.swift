import Foundation
import Testing
@testable import PhotoCore

/// The filter syntax, the same at the prompt and on the command line.
@Suite struct FilterParserTests {
    private func parse(_ input: String) throws -> SearchQuery {
        try #require(try SearchQuery.parse(input))
    }

    private func failure(_ input: String) -> String? {
        do {
            _ = try SearchQuery.parse(input)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func licencesByTheNamesPeopleUse() throws {
        let query = try parse("lighthouse license:cc0,pdm,by-sa")
        #expect(query.text == "lighthouse")
        #expect(query.filters.licenses == [.cc0, .pdm, .bySA])
        #expect(try parse("LICENSE:BY x").filters.licenses == [.by], "names are case-blind")
        #expect(try parse("license:by,by x").filters.licenses == [.by], "a repeat counts once")
    }

    @Test func licenceGroupsMeanWhatTheySay() {
        #expect(LicenseFilter.cc.kinds.contains(.cc0))
        #expect(!LicenseFilter.cc.kinds.contains(.pdm), "the mark is not a licence")
        #expect(LicenseFilter.commercial.kinds == [.by, .bySA, .byND, .cc0, .pdm, .noKnownRestrictions, .usGovernmentWork])
        #expect(LicenseFilter.modify.kinds == [.by, .bySA, .byNC, .byNCSA, .cc0, .pdm, .noKnownRestrictions, .usGovernmentWork])
    }

    @Test(arguments: [
        ("taken:2020..2022", "2020-01-01", "2022-12-31"),
        ("taken:2024-02", "2024-02-01", "2024-02-29"),
        ("taken:2023-02..", "2023-02-01", nil),
        ("taken:..2021-06-15", nil, "2021-06-15"),
    ] as [(String, String?, String?)])
    func datesAndRanges(_ input: String, _ first: String?, _ last: String?) throws {
        let range = try #require(try parse(input).filters.taken)
        #expect(range.from?.firstDay == first)
        #expect(range.to?.lastDay == last)
    }

    @Test func everyOtherFilter() throws {
        let filters = try parse("sort:taken-oldest uploaded:2024-01.. user:ana_s tag:red,blue tags:all near:48.85,2.35,3km bbox:-1,50,2,52 type:illustration orientation:square safe:off").filters
        #expect(filters.sort == .takenOldest)
        #expect(filters.uploaded?.from?.firstDay == "2024-01-01" && filters.uploaded?.to == nil)
        #expect(filters.user == "ana_s")
        #expect(filters.tags == ["red", "blue"] && filters.allTags)
        #expect(filters.near == GeoCircle(latitude: 48.85, longitude: 2.35, radiusKilometres: 3))
        #expect(filters.bbox == BoundingBox(minLongitude: -1, minLatitude: 50, maxLongitude: 2, maxLatitude: 52))
        #expect(filters.type == .illustration && filters.orientation == .square && filters.safe == false)
        #expect(filters.kinds == Set(FilterKind.allCases).subtracting([.license, .taken]))
    }

    @Test(arguments: [
        "\"license:x\" beach",
        "“license:x” beach",
        "-license:cc0 beach",
        "http://example.com/x beach",
        "note:this beach",
    ])
    func wordsThatAreNotFiltersStayText(_ input: String) throws {
        let query = try parse(input)
        #expect(query.filters.isEmpty, "\(query.filters)")
        #expect(query.text == input.split(separator: " ").joined(separator: " "))
    }

    @Test(arguments: [
        ("taken:2020..banana", "“2020..banana” is not a date or a range of dates. Use taken:2020, taken:2020-05..2021 or taken:..2022-12-31 (YYYY, YYYY-MM or YYYY-MM-DD; either end may be left open)."),
        ("taken:2022..2020", "“2022..2020” is not a date or a range of dates."),
        ("taken:2021-02-30", "“2021-02-30” is not a date"),
        ("license:gpl", "Unknown licence “gpl”. Use license: with cc, cc0, pdm, by, by-sa, by-nd, by-nc, by-nc-sa, by-nc-nd, commercial or modify, several with commas (license:by,by-sa)."),
        ("sort:random", "Unknown sort “random”. Use sort: with relevant, interesting, newest, oldest, taken-newest or taken-oldest."),
        ("near:91,0", "“91,0” is not a place."),
        ("near:10,10,40km", "radius up to 32 km"),
        ("bbox:2,50,1,52", "Use bbox:MINLON,MINLAT,MAXLON,MAXLAT"),
        ("type:gif", "Unknown type “gif”. Use type: with photo, illustration or vector."),
        ("orientation:round", "Use orientation: with landscape, portrait or square."),
        ("safe:maybe", "Use safe:on or safe:off."),
        ("user:", "user: needs a value."),
        ("license:\u{1B}[31m", "Unknown licence “[31m”"),
    ])
    func malformedFiltersSayTheFormTheyTake(_ input: String, _ message: String) throws {
        let said = try #require(failure(input + " x"))
        #expect(said.contains(message), "\(said)")
        #expect(!said.contains("\u{1B}"), "no escape reaches the screen")
    }

    @Test func aFilterValueMayBeQuoted() throws {
        let query = try parse("harbour user:\"Ana Souza\" tag:“old town”")
        #expect(query.text == "harbour")
        #expect(query.filters.user == "Ana Souza" && query.filters.tags == ["old town"])
        #expect(try parse(query.typed) == query, "typed back, it parses the same")
    }

    @Test func filtersAloneAreAQuery() throws {
        let query = try parse("user:ana")
        #expect(query.text.isEmpty && query.filters.user == "ana")
        #expect(query.description == "by ana")
    }

    @Test func laterFiltersReplaceEarlierOnesAndTheRestStay() throws {
        let standing = try parse("x license:cc0 sort:newest").filters
        let merged = standing.merging(try parse("x sort:oldest").filters)
        #expect(merged.licenses == [.cc0] && merged.sort == .oldest)
    }

    @Test func aProviderRefusesWhatItCannotHonourInOneSentence() throws {
        let filters = try parse("x near:1,2 license:cc0").filters
        let refusal = try #require(filters.refusal(by: "Shutterstock", supporting: [.sort, .user]))
        #expect(refusal == "Shutterstock cannot filter by license: and near:; it supports sort: and user:. Remove them with /filter clear or edit the query.")
        #expect(filters.refusal(by: "Flickr", supporting: Set(FilterKind.allCases)) == nil)
    }
}

import Foundation
import Testing

/// The recorded Shutterstock answers in `Recorded/shutterstock` (see its
/// README), found next to the tests so they need nothing outside the repository.
enum ShutterstockRecorded {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recorded").appendingPathComponent("shutterstock")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// Every file in the folder but the README, sorted.
    static var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0 != "README.md" }.sorted()
    }

    static let farmer2019 = "01-search_query-farmer_default-view_pp20_httptest_2019.json"
    static let page9of2018 = "02-search_page9_pp20_compact-raw_no-has_model_release_2018.json"
    static let accents2018 = "03-search_page1_pp20_compact-raw_total752_utf8-accents_2018.json"
    static let apple2017 = "04-search_pp15_no-huge_thumb_2017.json"
    static let noQuery2015 = "05-search_no-query_pp20_early-v2_http-urls_no-search_id_2015.json"
    static let previews2021 = "06-search_pp1_preview_1000-1500_2021.json"
    static let hiking2024 = "07-search_query-hiking_pp10_mosaic_spellcheck-fields_2024.json"
    static let forest2026 = "08-search_query-forest_pp5_preview_600_item-url_2026.json"
    static let unauthorized401 = "09-body_status-401.json"
    static let notFound404 = "10-body_status-404.json"
    static let html400 = "11-body_status-400.html"
    static let lightbox404 = "12-body_status-404.json"
}

/// What a correct decoder reads from one recorded search body; the values
/// were read off the files by hand, not by the code under test.
struct RecordedSearch: Sendable, CustomTestStringConvertible {
    var file: String
    var page: Int
    var perPage: Int
    var totalCount: Int
    var pages: Int
    var searchID: String?
    /// The ids in `data`, in order, separated by spaces.
    var ids: String
    var firstContributor: String
    /// The first item's assets: name → (width, height).
    var firstAssets: [String: [Int]]

    var testDescription: String { String(file.prefix(2)) }

    static let all: [RecordedSearch] = [
        RecordedSearch(
            file: ShutterstockRecorded.farmer2019, page: 1, perPage: 20, totalCount: 697_063, pages: 34_854,
            searchID: "bWtFf5mUi6thJ0GJRprUKw",
            ids: "508785310 1116673256 633563780 1179011221 1056563180 713730646 756444427 754521349 796270816 517959364 610807595 548654443 1067849828 764675416 402894580 389753290 659087254 715364827 1013485804 673264837",
            firstContributor: "1368610",
            firstAssets: ["preview": [450, 300], "small_thumb": [100, 67], "large_thumb": [150, 100], "huge_thumb": [390, 260]]),
        RecordedSearch(
            file: ShutterstockRecorded.page9of2018, page: 9, perPage: 20, totalCount: 995_474, pages: 49_774,
            searchID: "7Sqofy2p5mrw20sXfeShYw",
            ids: "723861847 1120192421 746652754 151206914 747281695 429334054 1012357711 1111725953 583048147 526720966 1074219794 1009276942 1134015974 176010635 1054012076 1089903716 789305881 1147590977 1077507071 612550874",
            firstContributor: "2942782",
            firstAssets: ["preview": [450, 300], "small_thumb": [100, 67], "large_thumb": [150, 100], "huge_thumb": [390, 260]]),
        RecordedSearch(
            file: ShutterstockRecorded.accents2018, page: 1, perPage: 20, totalCount: 752, pages: 38,
            searchID: "-EiOomwNmGs4hvHGgKFHWQ",
            ids: "1151842103 1188057154 1036146937 1036146931 1029086833 601181042 1029398347 1214997688 1213282825 1213282828 1213282831 1213282834 1208473936 1208473954 1202769745 1202769748 1202767543 1202767546 1202767549 1110941573",
            firstContributor: "79573",
            firstAssets: ["preview": [300, 450], "small_thumb": [67, 100], "large_thumb": [100, 150], "huge_thumb": [173, 260]]),
        RecordedSearch(
            file: ShutterstockRecorded.apple2017, page: 1, perPage: 15, totalCount: 25_568, pages: 1_705,
            searchID: "uMdZn2QIQjhFKx1Py_m2hg",
            ids: "732470233 575183722 699536323 602476478 699536326 664171090 664207033 647615791 630527609 230623021 668701417 698086780 704133745 584774746 485806801",
            firstContributor: "3936650",
            firstAssets: ["preview": [450, 450], "small_thumb": [100, 100], "large_thumb": [150, 150]]),
        RecordedSearch(
            file: ShutterstockRecorded.noQuery2015, page: 1, perPage: 20, totalCount: 46_120_330, pages: 2_306_017,
            searchID: nil,
            ids: "228944191 232910605 229546750 230227600 224950600 229456183 224305621 230782801 231670123 223147579 228004093 225669742 223574674 223978450 232914418 224793895 229291564 229698112 222077494 221911594",
            firstContributor: "1322491",
            firstAssets: ["preview": [450, 300], "small_thumb": [100, 67], "large_thumb": [150, 100]]),
        RecordedSearch(
            file: ShutterstockRecorded.previews2021, page: 1, perPage: 1, totalCount: 3_207_000, pages: 3_207_000,
            searchID: "pH4mTr97r-nHSY6tUrOeVA",
            ids: "228722404",
            firstContributor: "708811",
            firstAssets: ["preview": [450, 300], "small_thumb": [100, 67], "large_thumb": [150, 100], "huge_thumb": [390, 260],
                          "preview_1000": [1000, 667], "preview_1500": [1500, 1000]]),
        RecordedSearch(
            file: ShutterstockRecorded.hiking2024, page: 1, perPage: 10, totalCount: 7_704, pages: 771,
            searchID: "37c78e3c-ae2d-4119-8758-93422f8d66f2",
            ids: "2143210653 1530295826 150128987 2152231899 2029361552 1663682719 300554900 1990795487 1351755344 1814524712",
            firstContributor: "301539971",
            firstAssets: ["preview": [299, 450], "small_thumb": [66, 100], "large_thumb": [99, 150], "mosaic": [166, 250],
                          "preview_1000": [666, 1000], "preview_1500": [999, 1500], "huge_thumb": [173, 260]]),
        RecordedSearch(
            file: ShutterstockRecorded.forest2026, page: 1, perPage: 5, totalCount: 30_745_214, pages: 6_149_043,
            searchID: "d34caf54-1a04-4e67-8954-dcfd1366f4d4",
            ids: "2730669441 2699479365 2593337003 2716444763 2695557961",
            firstContributor: "466368535",
            firstAssets: ["preview": [450, 258], "small_thumb": [100, 58], "large_thumb": [150, 86], "mosaic": [250, 143],
                          "preview_600": [600, 343], "preview_1000": [1000, 572], "preview_1500": [1500, 858], "huge_thumb": [455, 260]]),
    ]
}

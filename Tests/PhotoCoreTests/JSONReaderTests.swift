import Foundation
import Testing
@testable import PhotoCore
@testable import FlickrService

/// `JSONReader`: the JSON grammar, its leniencies, and the messages
/// for what it refuses.
@Suite struct JSONReaderTests {
    private func read(_ text: String) throws(JSONReader.Failure) -> WireValue {
        try JSONReader.read(Data(text.utf8))
    }

    private func failure(_ text: String) -> String {
        do {
            let value = try read(text)
            Issue.record("expected a failure for \(text), got \(value)")
            return ""
        } catch {
            return error.description
        }
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try read(#" { "a" : [1, -2, 2.5, 1e3, true, false, null, "x", {}, []] } "#)
        #expect(value == .object([
            "a": .array([
                .integer(1), .integer(-2), .number(2.5), .integer(1000), .bool(true), .bool(false), .null,
                .string("x"), .object([:]), .array([]),
            ]),
        ]))
    }

    @Test func topLevelScalarsAreValues() throws {
        #expect(try read("42") == .integer(42))
        #expect(try read(#""ok""#) == .string("ok"))
        #expect(try read("null") == .null)
    }

    @Test func wholeFractionsAreIntegersAndHugeIntegersAreNumbers() throws {
        #expect(try read("2.0") == .integer(2))
        #expect(try read("-0.5e1") == .integer(-5))
        #expect(try read("1.5E-1") == .number(0.15))
        #expect(try read("9223372036854775807") == .integer(Int.max))
        #expect(try read("92233720368547758070") == .number(92_233_720_368_547_758_080))
    }

    @Test func escapesAreDecoded() throws {
        #expect(try read(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        #expect(try read(#""caf\u00e9 \u65e5""#) == .string("café 日"))
    }

    @Test func surrogatePairsJoinAndLoneSurrogatesBecomeReplacementCharacters() throws {
        #expect(try read(#""\ud83d\udc31""#) == .string("🐱"))
        #expect(try read(#""a\ud83db""#) == .string("a\u{FFFD}b"))
        #expect(try read(#""\udc31""#) == .string("\u{FFFD}"))
        // A high surrogate followed by an escape that is not a low one keeps that escape.
        #expect(try read(#""\ud83d\u0041""#) == .string("\u{FFFD}A"))
    }

    @Test func invalidUTF8IsRepairedNotRefused() throws {
        var bytes = Data(#"{"title":"a"#.utf8)
        bytes.append(contentsOf: [0xFF, 0xC3])
        bytes.append(contentsOf: Data(#"b"}"#.utf8))
        let value = try JSONReader.read(bytes)
        #expect(value["title"] == .string("a\u{FFFD}\u{FFFD}b"))
    }

    @Test func rawControlCharactersInStringsAreKeptForTheSanitiser() throws {
        #expect(try read("\"a\u{1B}[31mb\"") == .string("a\u{1B}[31mb"))
    }

    @Test func leadingByteOrderMarkIsSkipped() throws {
        var bytes = Data([0xEF, 0xBB, 0xBF])
        bytes.append(contentsOf: Data(#"{"stat":"ok"}"#.utf8))
        #expect(try JSONReader.read(bytes) == .object(["stat": .string("ok")]))
    }

    @Test func laterDuplicateMemberWins() throws {
        #expect(try read(#"{"a":1,"a":2}"#) == .object(["a": .integer(2)]))
    }

    /// Objects of every size around the point where members stop being
    /// gathered in a list, names repeated before and after it: each name
    /// keeps its last value.
    @Test(arguments: [0, 1, 63, 64, 65, 200])
    func largeObjectsWithRepeatedNamesKeepEachNamesLastValue(count: Int) throws {
        var expected: [String: WireValue] = [:]
        var members: [String] = []
        for index in 0..<count {
            let name = "n\(index % 50)"
            expected[name] = .integer(index)
            members.append("\"\(name)\":\(index)")
        }
        #expect(try read("{" + members.joined(separator: ",") + "}") == .object(expected))
    }

    @Test func cutShortInputSaysWhereItEnds() {
        let reason = failure(#"{"photos":{"page":1,"#)
        #expect(reason.contains("ends at byte 20"))
        #expect(reason.contains("member name"))
        #expect(failure(#""open"#).contains("closing quote"))
        #expect(failure("").contains("a value"))
    }

    @Test func grammarErrorsSayWhatWasExpectedAndWhere() {
        #expect(failure(#"{"a" 1}"#) == "expected “:” after a member name at byte 5")
        #expect(failure("[1 2]") == "expected “,” or “]” in a list at byte 3")
        #expect(failure(#"{"a":1 "b":2}"#) == "expected “,” or “}” in an object at byte 7")
        #expect(failure("{a:1}").contains("member name in quotes"))
        #expect(failure("[1,]").contains("a value at byte 3"))
        #expect(failure("tru").contains("true"))
        #expect(failure("-").contains("a digit"))
        #expect(failure("1.").contains("a digit after “.”"))
        #expect(failure("1e+").contains("exponent"))
        #expect(failure(#""\x""#).contains("after “\\”"))
        #expect(failure(#""\u12g4""#).contains("four hex digits"))
        #expect(failure("{} {}").contains("the end after the first value at byte 3"))
    }

    @Test func deepNestingIsRefusedWithoutExhaustingTheStack() {
        let depth = JSONReader.maximumDepth
        let allowed = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try read(allowed) }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(failure(hostile).contains("nested more than \(depth) deep"))
    }

    /// The reader agrees with Foundation's parser on the shape and the
    /// strings of every recorded Flickr JSON response.
    private static let recordedJSON = RecordedResponses.bodyNames.filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonp") }

    /// One integer rule for every provider: a whole number past `Int`'s
    /// range clamps (Flickr and Shutterstock used to drop the field, and
    /// Openverse clamped); a fraction is no whole number.
    @Test func wholeNumbersBeyondIntClampForEveryProvider() throws {
        #expect(try read("99999999999999999999").lenientInteger == .max)
        #expect(try read("-99999999999999999999").lenientInteger == .min)
        #expect(try read("1e300").lenientInteger == .max)
        #expect(try read(#""99999999999999999999""#).lenientInteger == .max)
        #expect(try read(#"" -99999999999999999999 ""#).lenientInteger == .min)
        #expect(try read(#""2.0""#).lenientInteger == 2)
        #expect(try read("2.5").lenientInteger == nil)
        #expect(try read(#""12 cats""#).lenientInteger == nil)
        #expect(try read(#""  42 ""#).lenientInteger == 42)
        // Text that is no number is nil, not a clamp; and numbers are decimal.
        for text in ["+-5", "--5", "-+99999999999999999999", "0x10", "0X1p4", "١٢", "１２", "5-", "e3", ""] {
            #expect(try read("\"\(text)\"").lenientInteger == nil, "\(text)")
        }
        #expect(try read(#""+5""#).lenientInteger == 5)
        #expect(try read(#""-0""#).lenientInteger == 0)
        #expect(try read(#""1e3""#).lenientInteger == 1_000)
        #expect(try read(#""1e400""#).lenientInteger == .max)
        #expect(try read(#""-1e400""#).lenientInteger == .min)
    }

    @Test func recordedJSONResponsesArePresent() {
        #expect(Self.recordedJSON.count >= 9)
    }

    @Test(arguments: recordedJSON)
    func agreesWithFoundationOnRecordedResponses(name: String) throws {
        let body = try RecordedResponses.body(named: name)
        let data = name.hasSuffix(".jsonp") ? try FlickrResponseDecoder.unwrapJSONP(body) : body
        let ours = try JSONReader.read(data)
        let foundation = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        #expect(Self.agrees(ours, foundation), "\(name)")
    }

    private static func agrees(_ value: WireValue, _ object: Any) -> Bool {
        switch value {
        case .null: return object is NSNull
        case .string(let text): return (object as? String) == text
        case .bool(let flag): return (object as? NSNumber)?.boolValue == flag
        case .integer(let number): return (object as? NSNumber)?.doubleValue == Double(number)
        case .number(let number): return (object as? NSNumber)?.doubleValue == number
        case .array(let values):
            guard let objects = object as? [Any], objects.count == values.count else { return false }
            return zip(values, objects).allSatisfy { agrees($0, $1) }
        case .object(let members):
            guard let objects = object as? [String: Any], objects.count == members.count else { return false }
            return members.allSatisfy { key, member in objects[key].map { agrees(member, $0) } ?? false }
        }
    }
}

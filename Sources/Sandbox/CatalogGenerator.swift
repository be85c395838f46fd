import Foundation

/// Builds the synthetic photos. Each photo draws from its own generator
/// (seeded by catalog seed and index), so a photo does not depend on the
/// photos generated before it.
struct CatalogGenerator {
    let seed: UInt64

    /// Upload time of the newest photo: fixed, so catalogs never depend on "now".
    static let newestUpload = 1_763_000_000
    /// Id of the newest photo; each older one is smaller by 1,000–40,000.
    static let newestID: Int64 = 53_400_000_000

    func makePhotos(count: Int, owners: [CatalogPerson]) -> [CatalogPhoto] {
        var photos: [CatalogPhoto] = []
        photos.reserveCapacity(count)
        var sequence = SplitMix64(seed: seed ^ 0x5EED_0F_1D5)
        var id = Self.newestID
        var upload = Self.newestUpload
        for index in 0..<count {
            var random = SplitMix64(seed: StableHash.mix(seed &+ UInt64(index) &* 0x9E37_79B9))
            let owner = owners[Self.ownerIndex(random.unit(), ownerCount: owners.count)]
            photos.append(makePhoto(index: index, id: id, upload: upload, owner: owner, random: &random))
            id -= Int64(1_000 + sequence.below(39_000))
            upload -= 30 + sequence.below(3_570)
        }
        return photos
    }

    /// A few owners upload most photos, as on Flickr.
    private static func ownerIndex(_ unit: Double, ownerCount: Int) -> Int {
        min(ownerCount - 1, Int(unit * unit * Double(ownerCount)))
    }

    /// The 300 owners; the first, who uploads the most, is the well-known
    /// owner tests and examples name (`SandboxWellKnown`).
    func makeOwners() -> [CatalogPerson] {
        var random = SplitMix64(seed: seed ^ 0x0_0E4E_45)
        let count = 300
        let block = 89_000_000 / count
        return (0..<count).map { index in
            let number = 10_000_000 + index * block + random.below(block)
            let nsid = "\(number)@N0\(random.below(9))"
            let name: String
            switch random.below(10) {
            case 0: name = random.pick(Vocabulary.handles) + String(random.below(100))
            case 1: name = random.pick(Vocabulary.internationalNames)
            default: name = random.pick(Vocabulary.firstNames) + " " + random.pick(Vocabulary.lastNames)
            }
            if index == 0 {
                return CatalogPerson(nsid: nsid, username: SandboxWellKnown.username,
                                     realName: SandboxWellKnown.realName, pathAlias: SandboxWellKnown.pathAlias)
            }
            return CatalogPerson(nsid: nsid, username: name, realName: Self.realName(nsid: nsid, username: name, seed: seed),
                                 pathAlias: Self.pathAlias(nsid: nsid, name: name, seed: seed))
        }
    }

    /// Most owners chose a URL name, made of their display name; drawn from
    /// its own generator so the owners' other fields stay as they were.
    private static func pathAlias(nsid: String, name: String, seed: UInt64) -> String {
        var random = SplitMix64(seed: StableHash.hash(nsid, seed: seed ^ 0xA11A5))
        guard random.chance(0.7) else { return "" }
        let letters = name.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        let stem = letters.isEmpty ? "user" : String(String.UnicodeScalarView(letters))
        return stem + String(random.below(1_000))
    }

    private func makePhoto(
        index: Int, id: Int64, upload: Int, owner: CatalogPerson, random: inout SplitMix64
    ) -> CatalogPhoto {
        var words: [String] = []
        for entry in Vocabulary.subjects where random.chance(entry.probability) { words.append(entry.word) }
        if words.isEmpty { words.append(random.pick(Vocabulary.fallbackSubjects)) }
        let taken = upload - random.below(86_400 * 400)
        var tags = words
        if random.chance(0.3) { tags.append(random.pick(Vocabulary.cameras)) }
        if random.chance(0.4) { tags.append(String(CalendarDate(unix: taken).year)) }

        let title = makeTitle(words: words, random: &random)
        let description = random.chance(0.4) ? "" : makeDescription(words: words, random: &random)
        let secret = String(random.next() & 0xFF_FFFF_FFFF, radix: 16).leftPadded(to: 10)
        let usesNewServer = random.chance(0.45)
        let server = usesNewServer ? "65535" : String(1_000 + random.below(8_999))
        let farm = usesNewServer ? 66 : 1 + random.below(9)
        let (width, height) = Self.originalSize(random: &random)
        // Drawn last, so adding them left every earlier field of a photo as it was.
        func hexSecret() -> String { String(random.next() & 0xFF_FFFF_FFFF, radix: 16).leftPadded(to: 10) }
        let originalSecret = hexSecret()
        let secret1600 = hexSecret()
        let secret2048 = hexSecret()
        // Most photos are seen a little, a few a lot.
        let views = Int(pow(random.unit(), 3) * 20_000)
        let license = random.pick(Self.licenses)
        let fileFormat = Self.fileFormat(random.unit())
        return CatalogPhoto(
            index: index, id: String(id), owner: owner.nsid, ownerName: owner.username, ownerRealName: owner.realName, secret: secret,
            server: server, farm: farm, title: title, description: description, tags: tags,
            dateUpload: upload, dateTaken: CalendarDate(unix: taken).text,
            originalWidth: width, originalHeight: height, originalSecret: originalSecret,
            secret1600: secret1600, secret2048: secret2048, views: views, license: license,
            fileFormat: fileFormat, pathAlias: owner.pathAlias, isVideo: Self.isVideo(id: id, seed: seed))
    }

    /// All rights reserved most often, then every other licence Flickr
    /// offers (each of ids 1–16 on about 1 photo in 25, CC BY a little more).
    private static let licenses = [0, 0, 0, 0, 0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 11, 12, 13, 14, 15, 16]

    /// Mostly JPEG; PNG, GIF and WebP on about 7 % of photos each, so any
    /// query with a few dozen matches meets all four.
    private static func fileFormat(_ roll: Double) -> SandboxImageFormat {
        switch roll {
        case ..<0.07: .png
        case ..<0.14: .gif
        case ..<0.21: .webp
        default: .jpeg
        }
    }

    /// Landscape most often, then portrait, then square; rarely small.
    private static func originalSize(random: inout SplitMix64) -> (Int, Int) {
        let roll = random.unit()
        // A few small originals, which have no 800 px and larger sizes.
        if roll < 0.03 { return random.pick([(640, 480), (800, 600), (1024, 683), (480, 640)]) }
        if roll < 0.6 { return random.pick([(4000, 3000), (6000, 4000), (3840, 2160), (4032, 3024)]) }
        if roll < 0.88 { return random.pick([(3000, 4000), (4000, 6000), (3024, 4032)]) }
        return (3000, 3000)
    }

    private func makeTitle(words: [String], random: inout SplitMix64) -> String {
        let roll = random.unit()
        if roll < 0.0025 { return random.pick(Vocabulary.hostileTitles) }
        if roll < 0.08 { return "" }
        if roll < 0.14 { return random.pick(Vocabulary.internationalTitles) }
        if roll < 0.20 { return random.pick(["IMG_", "DSC_", "P", "DSCF"]) + String(1_000 + random.below(9_000)) }
        let first = words[random.below(words.count)].capitalizingFirstLetter
        let second = words[random.below(words.count)]
        let template = random.below(6)
        switch template {
        case 0: return first
        case 1 where second.lowercased() != first.lowercased(): return "\(first) and \(second)"
        case 2 where second.lowercased() != first.lowercased(): return "\(first) with \(second)"
        case 3: return "My \(first.lowercased())"
        case 4: return "\(first) #\(1 + random.below(40))"
        default: return words.prefix(3).map(\.capitalizingFirstLetter).joined(separator: " ")
        }
    }

    private func makeDescription(words: [String], random: inout SplitMix64) -> String {
        let opener = random.pick(Vocabulary.openers)
        let subject = words.shuffled(using: &random).prefix(2).joined(separator: " and ")
        let closer = random.pick(Vocabulary.closers)
        // Flickr descriptions may carry HTML; clients must not print it raw either.
        if random.chance(0.1) { return "\(opener) \(subject). <b>\(closer)</b> &amp; more" }
        return "\(opener) \(subject). \(closer)"
    }
}

/// A civil date from unix seconds, without Foundation's calendars (fast and
/// the same everywhere).
struct CalendarDate {
    let year: Int
    let month: Int
    let day: Int
    let seconds: Int

    init(unix: Int) {
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        seconds = unix - days * 86_400
        // Howard Hinnant's days-to-civil algorithm.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `YYYY-MM-DD HH:MM:SS`.
    var text: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(year)-\(two(month))-\(two(day)) \(two(seconds / 3_600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }
}

extension String {
    /// Vocabulary words are lowercase ASCII; Foundation's `capitalized` is far slower.
    fileprivate var capitalizingFirstLetter: String { prefix(1).uppercased() + dropFirst() }

    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

/// Words the catalog is made of. Probabilities are per photo and
/// independent, which is what makes query sizes predictable: with 20,000
/// photos `kittens` ≈ 5,400 matches, `mountain lake` ≈ 20, `red car` ≈ 30.
enum Vocabulary {
    static let subjects: [(word: String, probability: Double)] = [
        ("kittens", 0.27), ("sunset", 0.26), ("beach", 0.25),
        ("cat", 0.08), ("dog", 0.08), ("puppy", 0.05), ("ocean", 0.08), ("sea", 0.06), ("sky", 0.1),
        ("clouds", 0.08), ("tree", 0.07), ("forest", 0.06), ("flowers", 0.08), ("garden", 0.05),
        ("city", 0.08), ("street", 0.07), ("night", 0.07), ("portrait", 0.06), ("family", 0.05),
        ("birds", 0.06), ("snow", 0.05), ("winter", 0.05), ("summer", 0.06), ("autumn", 0.05),
        ("spring", 0.04), ("river", 0.05), ("bridge", 0.04), ("architecture", 0.05), ("travel", 0.1),
        ("food", 0.05), ("coffee", 0.04), ("bicycle", 0.03), ("train", 0.03), ("boat", 0.04),
        ("sand", 0.05), ("waves", 0.05), ("light", 0.06),
        ("mountain", 0.035), ("lake", 0.03), ("red", 0.045), ("car", 0.03), ("blue", 0.04),
        ("green", 0.04), ("yellow", 0.03), ("orange", 0.025), ("vintage", 0.025), ("macro", 0.03),
        ("bokeh", 0.02), ("reflection", 0.025), ("rain", 0.03), ("fog", 0.02), ("harbor", 0.02),
        ("lighthouse", 0.015), ("castle", 0.015), ("church", 0.02), ("market", 0.02), ("festival", 0.02),
        ("wedding", 0.015), ("concert", 0.015), ("skyline", 0.02), ("desert", 0.015), ("canyon", 0.01),
        ("waterfall", 0.015), ("island", 0.02), ("meadow", 0.015), ("horse", 0.015), ("owl", 0.01),
        ("butterfly", 0.015), ("tulips", 0.01), ("roses", 0.015), ("sunflower", 0.01), ("paris", 0.015),
        ("tokyo", 0.015), ("london", 0.015), ("berlin", 0.01), ("iceland", 0.01), ("kyoto", 0.005),
        ("lantern", 0.005), ("windmill", 0.005), ("glacier", 0.005), ("volcano", 0.004), ("tram", 0.004),
    ]

    /// Used when a photo drew no subject at all.
    static let fallbackSubjects = ["landscape", "people", "window", "shadow", "door", "wall", "road"]

    static let cameras = ["canon", "nikon", "fujifilm", "iphone", "sony", "leica", "olympus", "pentax"]

    static let openers = [
        "Taken on a quiet morning:", "From our trip last year,", "Just playing around with", "Shot handheld,",
        "One more of", "Couldn't resist", "Straight out of camera:", "Walking home I found",
    ]

    static let closers = [
        "Thanks for looking!", "Best viewed large.", "Comments welcome.", "No edits.",
        "Explored, thank you all.", "Part of a longer series.", "Shot on film.",
    ]

    static let firstNames = [
        "Anna", "Ben", "Carla", "David", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kate", "Luis",
        "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sam", "Tara", "Umar", "Vera", "Will", "Yuki",
    ]

    static let lastNames = [
        "Andersen", "Brooks", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Hughes", "Ivanova",
        "Jensen", "Kowalski", "Larsen", "Moreau", "Nakamura", "Okafor", "Petrov", "Rossi", "Schmidt",
    ]

    static let handles = ["sunsetchaser", "shutterbug", "lens_wanderer", "pixelpeeper", "filmfan", "nightowl"]

    static let internationalNames = [
        "Zoë Müller", "José Núñez", "山田太郎", "Łukasz Wiśniewski", "Ægir Þórsson", "Søren Kierkegård",
        "Мария Иванова", "François Lefèvre", "김민준", "Ayşe Yılmaz",
    ]

    static let internationalTitles = [
        "夕焼けのビーチ", "子猫と一緒に", "Café à Montmartre", "Zoë und die Kätzchen", "Ñandú en la playa",
        "Ηλιοβασίλεμα στη θάλασσα", "Закат на море", "🐱 kitten time 🐾", "🌅🌊", "e\u{301}te\u{301} a\u{300} la plage",
        "שקיעה בים", "غروب الشمس", "北京的夜景", "Smørrebrød i København", "Ça va? Très bien! ✨",
        "서울의 밤", "Crème brûlée 🍮", "Łódź o zmierzchu",
    ]

    /// Rare titles that would wreck a terminal printed raw: screen clears,
    /// clipboard writes (OSC 52), colour codes, C1 controls, bidi overrides,
    /// line breaks.
    static let hostileTitles = [
        "Sunset \u{1B}[2J\u{1B}[Hcleared", "\u{1B}]52;c;aGFja2Vk\u{07}clipboard", "photo\u{202E}gpj.exe",
        "line one\nline two", "\u{1B}[31mred\u{1B}[0m text", "\u{9B}31mC1 CSI", "tab\there\rcarriage",
        "bell\u{07}\u{7F}delete", "\u{2066}isolate\u{2069} and \u{202D}override\u{202C}",
        "\u{1B}]0;window title\u{07}beach",
    ]
}

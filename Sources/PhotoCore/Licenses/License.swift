import Foundation

/// The terms a work is shared under, as one value whatever the provider
/// calls it (a provider's licence numbers, Openverse's slugs and versions).
public struct License: Sendable, Hashable, Codable {
    /// What the terms allow, as Creative Commons names them.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case allRightsReserved
        case by, bySA = "by-sa", byND = "by-nd", byNC = "by-nc", byNCSA = "by-nc-sa", byNCND = "by-nc-nd"
        /// CC0: the author dedicated the work to the public domain.
        case cc0
        /// Public Domain Mark: the work is known to be free of copyright.
        case pdm
        /// Flickr Commons: "No known copyright restrictions".
        case noKnownRestrictions
        case usGovernmentWork
        /// A licence this table does not know (Openverse's `sampling+`, …).
        case other
    }

    public let kind: Kind
    /// "2.0", "4.0", "1.0"; `nil` when the terms have none.
    public let version: String?
    /// The short name people and `--json` use: `CC BY 2.0`, `CC0 1.0`,
    /// `PDM 1.0`, `All Rights Reserved`.
    public let shortName: String
    /// The full name: "Creative Commons Attribution 2.0".
    public let fullName: String
    public let url: URL?
    /// The provider's own number for these terms, when it numbers them
    /// (opaque here: the provider maps it, and sidecars print it).
    public let providerID: Int?

    public init(kind: Kind, version: String?, shortName: String, fullName: String, url: URL?, providerID: Int? = nil) {
        self.kind = kind
        self.version = version
        self.shortName = shortName
        self.fullName = fullName
        self.url = url
        self.providerID = providerID
    }

    /// A Creative Commons licence or tool (CC0), not the Public Domain Mark.
    public var isCreativeCommons: Bool {
        switch kind {
        case .by, .bySA, .byND, .byNC, .byNCSA, .byNCND, .cc0: true
        default: false
        }
    }

    /// Free of copyright as far as anyone knows, or dedicated to the public domain.
    public var isPublicDomain: Bool {
        [.cc0, .pdm, .noKnownRestrictions, .usGovernmentWork].contains(kind)
    }

    /// May be used commercially.
    public var allowsCommercialUse: Bool {
        switch kind {
        case .by, .bySA, .byND: true
        default: isPublicDomain
        }
    }

    /// May be adapted.
    public var allowsModification: Bool {
        switch kind {
        case .by, .bySA, .byNC, .byNCSA: true
        default: isPublicDomain
        }
    }

    /// Whether an attribution says "is marked with" (public domain) rather
    /// than "is licensed under".
    public var isMark: Bool { isPublicDomain }

    /// The mark a grid cell shows: `CC BY`, `CC0`, `PD`, `©`.
    public var badge: String {
        switch kind {
        case .allRightsReserved: "©"
        case .cc0: "CC0"
        case .pdm, .noKnownRestrictions, .usGovernmentWork: "PD"
        case .other: shortName
        default: "CC " + kind.rawValue.uppercased()
        }
    }
}

// The provider's number was saved as `flickrID` before it was neutral:
// sessions written then keep it.
extension License {
    private enum CodingKeys: String, CodingKey {
        case kind, version, shortName, fullName, url, providerID
        case flickrID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            version: try container.decodeIfPresent(String.self, forKey: .version),
            shortName: try container.decode(String.self, forKey: .shortName),
            fullName: try container.decode(String.self, forKey: .fullName),
            url: try container.decodeIfPresent(URL.self, forKey: .url),
            providerID: try container.decodeIfPresent(Int.self, forKey: .providerID)
                ?? container.decodeIfPresent(Int.self, forKey: .flickrID))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encode(shortName, forKey: .shortName)
        try container.encode(fullName, forKey: .fullName)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(providerID, forKey: .providerID)
    }
}

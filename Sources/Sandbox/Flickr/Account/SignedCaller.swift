import Foundation

/// Who may see a photo, as Flickr's `ispublic`, `isfriend` and `isfamily` say.
public struct PhotoVisibility: Sendable, Hashable {
    public var isPublic: Bool
    public var isFriend: Bool
    public var isFamily: Bool

    public static let everyone = PhotoVisibility(isPublic: true, isFriend: false, isFamily: false)
    public static let onlyYou = PhotoVisibility(isPublic: false, isFriend: false, isFamily: false)
}

/// What an access token allows, as the authorize page's `perms` granted it.
enum OAuthPermission: Int, Comparable, CaseIterable, Sendable {
    case read = 1, write, delete

    /// `read`, `write` or `delete`; nil for anything else.
    init?(name: String?) {
        guard let permission = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = permission
    }

    var name: String {
        switch self {
        case .read: "read"
        case .write: "write"
        case .delete: "delete"
        }
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The person a well-signed call acts as, and what their token allows.
struct SignedCaller: Sendable {
    var person: CatalogPerson
    var permission: OAuthPermission

    /// `user_id` as the call named it: `me` (or nothing, where the method allows it) is the caller.
    static func userID(_ value: String?, caller: SignedCaller?) -> String {
        let named = value?.trimmingCharacters(in: .whitespaces) ?? ""
        return named == "me" ? caller?.person.nsid ?? "" : named
    }
}

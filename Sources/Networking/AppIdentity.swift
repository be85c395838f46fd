/// Who is asking, for the User-Agent of every request to every service:
/// the app's name, its version and where the project lives, as Wikimedia's
/// User-Agent policy requires (a client it cannot identify is refused) and
/// as any API operator needs to reach whoever runs a misbehaving client.
public enum AppIdentity {
    public static let name = "flickr"
    /// The same version `flickr --version` prints.
    public static let version = "0.1.0"
    /// Where to find the project and its maintainers.
    public static let projectURL = "https://flickr.invalid/"

    /// `flickr/0.1.0 (+https://…)`.
    public static var userAgent: String { "\(name)/\(version) (+\(projectURL))" }
}

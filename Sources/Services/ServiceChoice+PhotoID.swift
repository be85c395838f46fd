import PhotoCore
import Sandbox

// Both already say what failed and what to do.
extension ServiceSetupError: WordedError {}
extension SandboxError: WordedError {}

extension ServiceChoice {
    /// `id` when it has the shape of the chosen service's photo ids (a
    /// Flickr number, an Openverse UUID); otherwise a sentence saying the shape.
    public func photoID(_ id: String, in registry: ProviderRegistry) throws(ServiceSetupError) -> String {
        let shape = try descriptor(in: registry).photoID
        guard shape.accepts(id) else {
            throw ServiceSetupError("A photo id is \(shape.wording) (got \"\(id.prefix(40))\").")
        }
        return id
    }
}

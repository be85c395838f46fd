import PhotoCore
import CommonsService
import FlickrService
import OpenverseService
import ShutterstockService

extension ProviderRegistry {
    /// Every provider the app offers, one line each, in the order `--help`
    /// lists them; the first is the default.
    public static let standard = ProviderRegistry([
        FlickrProvider.descriptor,
        ShutterstockProvider.descriptor,
        OpenverseProvider.descriptor,
        CommonsProvider.descriptor,
    ])
}

import Binding
import PhotoCore
import Foundation
import ImagePipeline

/// One photo shown large (`/open N`, or a photo link pasted at the prompt):
/// its large image loading, and its details asked of the service.
extension FlickrViewModel {
    /// The photo with result number `number`, with its large image loading.
    public func open(_ number: Int) -> PhotoDetail? {
        let all = cells
        guard let cell = all.first(where: { $0.number == number }) else {
            if case .loading(_, let page) = activity.value, all.isEmpty {
                noticeSource.value = .info("Page \(page) is still loading; /open a result once it is shown.")
            } else {
                noticeSource.value = .error(all.isEmpty
                    ? "No results yet: search first, then /open a result number."
                    : "No result \(number): results \(all[0].number)–\(all[all.count - 1].number) are loaded.")
            }
            return nil
        }
        return openDetail(of: cell)
    }

    /// The large image and details of `cell`'s photo, replacing the photo
    /// opened before.
    func openDetail(of cell: ImageModel) -> PhotoDetail {
        let (model, size) = factory.detail(of: cell)
        detail?.cancel()
        detailFacts?.cancel()
        detail = model
        model.load(priority: .veryHigh)
        let opened = PhotoDetail(
            model: model, size: size, pageURL: provider.photoPageURL(for: cell.photo),
            details: PhotoDetail.details(of: cell.photo, from: provider))
        detailFacts = opened
        return opened
    }
}

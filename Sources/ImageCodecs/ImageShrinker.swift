/// Shrinks decoded pixels by a whole factor, averaging each square of
/// source pixels: the step the JPEG decoder's scaled decode does for free,
/// for the formats whose libraries cannot decode smaller.
enum ImageShrinker {
    /// `image` shrunk by the largest whole factor that keeps it covering
    /// `fitting` (its aspect kept), or `image` itself when that factor is 1.
    static func shrink(_ image: DecodedImage, fitting: (width: Int, height: Int)?) -> DecodedImage {
        guard image.width > 0, image.height > 0 else { return image }
        let factor = factor(width: image.width, height: image.height, fitting: fitting)
        guard factor >= 2 else { return image }
        let width = image.width / factor
        let height = image.height / factor
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let area = factor * factor
        image.rgba.withUnsafeBufferPointer { source in
            for y in 0..<height {
                for x in 0..<width {
                    // Colours weighted by alpha, so transparent pixels'
                    // (meaningless) colours do not bleed into the edge.
                    var red = 0, green = 0, blue = 0, alpha = 0
                    for row in (y * factor)..<(y * factor + factor) {
                        var offset = (row * image.width + x * factor) * 4
                        for _ in 0..<factor {
                            let weight = Int(source[offset + 3])
                            red += Int(source[offset]) * weight
                            green += Int(source[offset + 1]) * weight
                            blue += Int(source[offset + 2]) * weight
                            alpha += weight
                            offset += 4
                        }
                    }
                    let target = (y * width + x) * 4
                    if alpha > 0 {
                        pixels[target] = UInt8((red + alpha / 2) / alpha)
                        pixels[target + 1] = UInt8((green + alpha / 2) / alpha)
                        pixels[target + 2] = UInt8((blue + alpha / 2) / alpha)
                    }
                    pixels[target + 3] = UInt8((alpha + area / 2) / area)
                }
            }
        }
        return DecodedImage(
            width: width, height: height, rgba: pixels,
            sourceWidth: image.sourceWidth, sourceHeight: image.sourceHeight, format: image.format)
    }
}

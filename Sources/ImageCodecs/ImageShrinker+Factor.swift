extension ImageShrinker {
    /// The largest whole factor that shrinks `width×height` and still covers
    /// `fitting` (aspect kept); 1 when no shrinking is wanted.
    static func factor(width: Int, height: Int, fitting: (width: Int, height: Int)?) -> Int {
        guard let fitting, fitting.width > 0, fitting.height > 0, width > 0, height > 0 else { return 1 }
        let fit = min(Double(fitting.width) / Double(width), Double(fitting.height) / Double(height))
        guard fit < 1 else { return 1 }
        let neededWidth = Int((Double(width) * fit).rounded(.up))
        let neededHeight = Int((Double(height) * fit).rounded(.up))
        return max(1, min(width / max(1, neededWidth), height / max(1, neededHeight)))
    }

    /// `factor`, raised until the shrunk picture has at most `budget` pixels.
    static func factor(width: Int, height: Int, fitting: (width: Int, height: Int)?, budget: Int) -> Int {
        var factor = self.factor(width: width, height: height, fitting: fitting)
        while factor < max(width, height),
              DecodeBudget.pixelCount(width: width / factor, height: height / factor) > budget {
            factor += 1
        }
        return factor
    }
}

/// The name a person probably meant: the one name a word begins, else the nearest within a typo
/// or two (Levenshtein distance, case ignored, up to a third of the word and at least one).
/// Used for commands (`CommandSuggestion`) and for wallet and category names; never acted on,
/// only offered.
enum NameSuggestion {
    static func nearest(_ typed: String, among names: [String]) -> String? {
        let word = typed.lowercased()
        guard !word.isEmpty else { return nil }
        let begun = names.filter { $0.lowercased().hasPrefix(word) }
        if begun.count == 1 { return begun[0] }
        let nearest = names.map { (name: $0, distance: distance(word, $0.lowercased())) }.min { $0.distance < $1.distance }
        guard let nearest, nearest.distance <= max(1, min(2, word.count / 3)) else { return nil }
        return nearest.name
    }

    /// Levenshtein distance, for the few short names of one list.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

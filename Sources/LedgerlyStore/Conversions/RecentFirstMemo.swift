/// Values remembered by key for one write, the last four asked for looked at before the rest.
///
/// Why: the keys a batch asks for (a day's rate snapshots, their stored text) come in runs, and
/// a key asked for again is mostly the very same value, which `==` tells at once where hashing
/// reads all of it (every field of a snapshot, the 250 bytes of its text).
struct RecentFirstMemo<Key: Hashable, Value> {
    private var all: [Key: Value] = [:]
    private var recent: [(key: Key, value: Value)] = []

    /// The value kept under `key`, made with `make` and kept the first time it is asked for.
    mutating func value(for key: Key, _ make: (Key) throws -> Value) rethrows -> Value {
        if let hit = recent.first(where: { $0.key == key }) { return hit.value }
        let value: Value
        if let known = all[key] {
            value = known
        } else {
            value = try make(key)
            all[key] = value
        }
        if recent.count == 4 { recent.removeFirst() }
        recent.append((key, value))
        return value
    }
}

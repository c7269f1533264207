/// The lots of one asset across accounts, and what each sale realised: a pure replay of the
/// asset's trades in the order given (the store's: date, recorded time, recorded order), by the
/// rules of docs/investments.md. The store keeps
/// its result (`lots`, `realisations`) and replays again whenever a trade changes.
public struct LotBook: Sendable {
    /// An open lot: units from one buy, in one account.
    public struct Lot: Hashable, Sendable {
        /// The buy that opened it (a transfer keeps it).
        public var id: Int64
        public var accountId: Int64
        public var acquired: String
        public var quantity: Quantity
        /// Quote-currency and base-currency minor units.
        public var cost: Int64
        public var costBase: Int64
        /// Orders lots acquired on one day (FIFO, LIFO, the average's remainder) before the id:
        /// its buy's place in the replay, the same on every device that syncs it ("" sorts by id).
        public var order: String

        public init(id: Int64, accountId: Int64, acquired: String, quantity: Quantity, cost: Int64, costBase: Int64, order: String = "") {
            self.id = id
            self.accountId = accountId
            self.acquired = acquired
            self.quantity = quantity
            self.cost = cost
            self.costBase = costBase
            self.order = order
        }

        /// Older first: by acquisition day, then the buy's order, then id.
        func isOlder(than other: Lot) -> Bool {
            (acquired, order, id) < (other.acquired, other.order, other.id)
        }
    }

    /// A lot named by a sale or transfer.
    public struct Pick: Hashable, Sendable {
        public var lotId: Int64
        public var quantity: Quantity
        public init(lotId: Int64, quantity: Quantity) {
            self.lotId = lotId
            self.quantity = quantity
        }
    }

    public enum Action: Hashable, Sendable {
        case buy(quantity: Quantity, cost: Int64, costBase: Int64)
        /// `rate` is R₁, base per quote currency on the sale's date.
        case sell(quantity: Quantity, proceeds: Int64, proceedsBase: Int64, rate: ExchangeRate, picks: [Pick]?)
        case split(new: Int, old: Int)
        case transfer(toAccountId: Int64, quantity: Quantity, picks: [Pick]?)
    }

    public struct Trade: Hashable, Sendable {
        public var id: Int64
        /// The account it happens in (a split's is ignored: it applies to every account).
        public var accountId: Int64
        public var date: String
        public var action: Action
        /// A buy's order among the lots acquired on its day (`Lot.order`).
        public var order: String

        public init(id: Int64, accountId: Int64, date: String, action: Action, order: String = "") {
            self.id = id
            self.accountId = accountId
            self.date = date
            self.action = action
            self.order = order
        }
    }

    /// One lot's part of a sale.
    public struct Realisation: Hashable, Sendable {
        public var tradeId: Int64
        public var position: Int
        public var accountId: Int64
        public var date: String
        public var lotId: Int64
        public var acquired: String
        public var quantity: Quantity
        public var cost: Int64
        public var proceeds: Int64
        public var costBase: Int64
        public var proceedsBase: Int64
        /// `round(cost × R₁) − costBase`.
        public var currencyEffect: Int64

        public var gain: Int64 { proceedsBase - costBase }
        public var priceEffect: Int64 { gain - currencyEffect }

        public init(tradeId: Int64, position: Int, accountId: Int64, date: String, lotId: Int64, acquired: String, quantity: Quantity, cost: Int64, proceeds: Int64, costBase: Int64, proceedsBase: Int64, currencyEffect: Int64) {
            self.tradeId = tradeId
            self.position = position
            self.accountId = accountId
            self.date = date
            self.lotId = lotId
            self.acquired = acquired
            self.quantity = quantity
            self.cost = cost
            self.proceeds = proceeds
            self.costBase = costBase
            self.proceedsBase = proceedsBase
            self.currencyEffect = currencyEffect
        }
    }

    /// Open lots, in no particular order.
    public private(set) var lots: [Lot]
    /// Realisations made by the trades applied to this book, in order.
    public private(set) var realisations: [Realisation] = []
    private let method: @Sendable (Int64) -> CostBasisMethod
    /// Converts quote-currency minor units to an account's base-currency minor units at a rate,
    /// rounding once half to even (the currencies and their exponents are the caller's).
    /// Nil when the result is too large to record.
    private let toBase: @Sendable (_ accountId: Int64, _ amount: Int64, _ rate: ExchangeRate) -> Int64?

    /// A book holding `lots` (the state before the first trade to apply).
    public init(lots: [Lot] = [], method: @escaping @Sendable (Int64) -> CostBasisMethod, toBase: @escaping @Sendable (_ accountId: Int64, _ amount: Int64, _ rate: ExchangeRate) -> Int64?) {
        self.lots = lots
        self.method = method
        self.toBase = toBase
    }

    /// Applies trades in order; throws at the first that cannot be applied, naming it.
    public mutating func apply(_ trades: [Trade]) throws(LotBookError) {
        for trade in trades { try apply(trade) }
    }

    public mutating func apply(_ trade: Trade) throws(LotBookError) {
        switch trade.action {
        case .buy(let quantity, let cost, let costBase):
            lots.append(Lot(id: trade.id, accountId: trade.accountId, acquired: trade.date, quantity: quantity, cost: cost, costBase: costBase, order: trade.order))
            if method(trade.accountId) == .average { average(trade.accountId) }
        case .sell(let quantity, let proceeds, let proceedsBase, let rate, let picks):
            let taken = try take(quantity, from: trade.accountId, picks: picks, trade: trade.id)
            let proceedsShares = ExactShares.allocate(proceeds, weights: taken.map(\.quantity.atto))
            let proceedsBaseShares = ExactShares.allocate(proceedsBase, weights: taken.map(\.quantity.atto))
            for (index, part) in taken.enumerated() {
                guard let costAtSaleRate = toBase(trade.accountId, part.cost, rate) else { throw .tooLarge(tradeId: trade.id) }
                realisations.append(Realisation(
                    tradeId: trade.id, position: index, accountId: trade.accountId, date: trade.date, lotId: part.id, acquired: part.acquired,
                    quantity: part.quantity, cost: part.cost, proceeds: proceedsShares[index], costBase: part.costBase, proceedsBase: proceedsBaseShares[index],
                    currencyEffect: costAtSaleRate - part.costBase))
            }
        case .split(let new, let old):
            for index in lots.indices {
                guard let split = lots[index].quantity.split(new: new, old: old) else {
                    throw .splitInexact(tradeId: trade.id, lotId: lots[index].id, quantity: lots[index].quantity)
                }
                lots[index].quantity = split
            }
        case .transfer(let toAccountId, let quantity, let picks):
            let taken = try take(quantity, from: trade.accountId, picks: picks, trade: trade.id)
            for var part in taken {
                part.accountId = toAccountId
                if let index = lots.firstIndex(where: { $0.accountId == toAccountId && $0.id == part.id }) {
                    lots[index].quantity = lots[index].quantity + part.quantity
                    lots[index].cost += part.cost
                    lots[index].costBase += part.costBase
                } else {
                    lots.append(part)
                }
            }
            if method(toAccountId) == .average { average(toAccountId) }
        }
    }

    /// Takes `quantity` out of an account's lots: the named ones, or by the account's method.
    /// Returns the parts taken (each with its share of its lot's cost), in the order taken.
    private mutating func take(_ quantity: Quantity, from accountId: Int64, picks: [Pick]?, trade: Int64) throws(LotBookError) -> [Lot] {
        let open = lots.indices.filter { lots[$0].accountId == accountId }
        let held = open.reduce(Quantity.zero) { $0 + lots[$1].quantity }
        guard held >= quantity else { throw .insufficient(tradeId: trade, accountId: accountId, held: held, needed: quantity) }
        let accountMethod = method(accountId)
        var plan: [(index: Int, quantity: Quantity)] = []
        if let picks {
            guard picks.reduce(Quantity.zero, { $0 + $1.quantity }) == quantity else { throw .picksDoNotAddUp(tradeId: trade, quantity: quantity) }
            for pick in picks {
                guard let index = open.first(where: { lots[$0].id == pick.lotId }) else { throw .unknownLot(tradeId: trade, lotId: pick.lotId) }
                let already = plan.filter { $0.index == index }.reduce(Quantity.zero) { $0 + $1.quantity }
                guard lots[index].quantity >= already + pick.quantity else {
                    throw .lotTooSmall(tradeId: trade, lotId: pick.lotId, held: lots[index].quantity - already, needed: pick.quantity)
                }
                plan.append((index, pick.quantity))
            }
        } else {
            let ordered = open.sorted { a, b in
                let older = lots[a].isOlder(than: lots[b])
                return accountMethod == .lifo ? !older : older
            }
            var left = quantity
            for index in ordered where left.isPositive {
                let part = min(left, lots[index].quantity)
                plan.append((index, part))
                left = left - part
            }
        }
        var taken: [Lot] = []
        if accountMethod == .average && picks == nil {
            // The pool's average: the part taken carries round(pool × quantity / held) of the
            // pool's cost (and base cost), and the pool keeps exactly the rest, so what was bought
            // is always what was sold plus what is held. The rest is shared over the lots still
            // open (by `average` below); it is not each lot's cost less its part's share, which
            // left a lot that was taken whole with a minor unit or two over or under its share,
            // dropped with it (issue 45 item 6).
            let poolCost = open.reduce(0) { $0 + lots[$1].cost }
            let poolBase = open.reduce(0) { $0 + lots[$1].costBase }
            let cost = ExactShares.prorate(poolCost, part: quantity.atto, whole: held.atto)
            let costBase = ExactShares.prorate(poolBase, part: quantity.atto, whole: held.atto)
            let costs = ExactShares.allocate(cost, weights: plan.map(\.quantity.atto))
            let bases = ExactShares.allocate(costBase, weights: plan.map(\.quantity.atto))
            for (position, step) in plan.enumerated() {
                var part = lots[step.index]
                part.quantity = step.quantity
                part.cost = costs[position]
                part.costBase = bases[position]
                taken.append(part)
                lots[step.index].quantity = lots[step.index].quantity - step.quantity
            }
            let remaining = open.filter { lots[$0].quantity.isPositive }.sorted { lots[$0].isOlder(than: lots[$1]) }
            let remainingCosts = ExactShares.allocate(poolCost - cost, weights: remaining.map { lots[$0].quantity.atto })
            let remainingBases = ExactShares.allocate(poolBase - costBase, weights: remaining.map { lots[$0].quantity.atto })
            for (position, index) in remaining.enumerated() {
                lots[index].cost = remainingCosts[position]
                lots[index].costBase = remainingBases[position]
            }
        } else {
            for step in plan {
                var part = lots[step.index]
                let whole = part.quantity
                part.quantity = step.quantity
                part.cost = ExactShares.prorate(lots[step.index].cost, part: step.quantity.atto, whole: whole.atto)
                part.costBase = ExactShares.prorate(lots[step.index].costBase, part: step.quantity.atto, whole: whole.atto)
                taken.append(part)
                lots[step.index].quantity = whole - step.quantity
                lots[step.index].cost -= part.cost
                lots[step.index].costBase -= part.costBase
            }
        }
        lots.removeAll { !$0.quantity.isPositive }
        if accountMethod == .average { average(accountId) }
        return taken
    }

    /// Gives every open lot of an average-cost account its share of the holding's total cost and
    /// base cost, in proportion to quantity (largest remainder, so the totals are kept exactly).
    private mutating func average(_ accountId: Int64) {
        let indices = lots.indices.filter { lots[$0].accountId == accountId }.sorted { lots[$0].isOlder(than: lots[$1]) }
        guard indices.count > 1 else { return }
        let weights = indices.map { lots[$0].quantity.atto }
        let costs = ExactShares.allocate(indices.reduce(0) { $0 + lots[$1].cost }, weights: weights)
        let bases = ExactShares.allocate(indices.reduce(0) { $0 + lots[$1].costBase }, weights: weights)
        for (position, index) in indices.enumerated() {
            lots[index].cost = costs[position]
            lots[index].costBase = bases[position]
        }
    }
}

/// Why a trade cannot be applied to the lots before it.
public enum LotBookError: Error, Equatable, Sendable, CustomStringConvertible {
    case insufficient(tradeId: Int64, accountId: Int64, held: Quantity, needed: Quantity)
    case unknownLot(tradeId: Int64, lotId: Int64)
    case lotTooSmall(tradeId: Int64, lotId: Int64, held: Quantity, needed: Quantity)
    case picksDoNotAddUp(tradeId: Int64, quantity: Quantity)
    case splitInexact(tradeId: Int64, lotId: Int64, quantity: Quantity)
    /// A cost at the sale's rate is past what the ledger can record.
    case tooLarge(tradeId: Int64)

    public var tradeId: Int64 {
        switch self {
        case .insufficient(let id, _, _, _), .unknownLot(let id, _), .lotTooSmall(let id, _, _, _), .picksDoNotAddUp(let id, _), .splitInexact(let id, _, _), .tooLarge(let id): id
        }
    }

    public var description: String {
        switch self {
        case .insufficient(_, _, let held, let needed): "it needs \(needed) units but the account holds \(held) then"
        case .unknownLot(_, let lot): "lot \(lot) is not open in the account then"
        case .lotTooSmall(_, let lot, let held, let needed): "it takes \(needed) units of lot \(lot), which holds \(held) then"
        case .picksDoNotAddUp(_, let quantity): "the lots it names do not add up to its quantity \(quantity)"
        case .splitInexact(_, let lot, let quantity): "lot \(lot) of \(quantity) units would need more than \(Quantity.scale) decimal places after the split"
        case .tooLarge: "a cost at the sale's rate is too large to record"
        }
    }
}

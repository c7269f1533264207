import CZeroMQ

/// The libzmq socket patterns Ledgerly uses.
public enum ZMQSocketType: Sendable {
    case router, dealer, req, rep, pub, sub, pair, push, pull

    var rawValue: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .pair: ZMQ_PAIR
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        }
    }
}

import CZeroMQ

/// Waits on several sockets and plain file descriptors at once (`zmq_poll`).
public struct ZMQPoller {
    private var items: [zmq_pollitem_t] = []

    public init() {}

    /// Watches a socket for input. Items report in the order they were added.
    public mutating func add(_ socket: ZMQSocket) {
        items.append(zmq_pollitem_t(socket: socket.rawHandle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0))
    }

    /// Watches a plain file descriptor (an eventfd, say) for input.
    public mutating func add(fileDescriptor: Int32) {
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: Int16(ZMQ_POLLIN), revents: 0))
    }

    /// Polls; `timeoutMilliseconds` of -1 waits forever. Returns, per item, whether it has input.
    /// An interrupted poll (`EINTR`) reports nothing ready rather than failing.
    public mutating func poll(timeoutMilliseconds: Int) throws(ZMQError) -> [Bool] {
        for index in items.indices { items[index].revents = 0 }
        let count = items.count
        let result = items.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, Int32(count), timeoutMilliseconds) }
        if result == -1 {
            let error = ZMQError.last("zmq_poll")
            if error.isInterrupted { return Array(repeating: false, count: count) }
            throw error
        }
        return items.map { ($0.revents & Int16(ZMQ_POLLIN)) != 0 }
    }
}

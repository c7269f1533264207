import LedgerlyRuntime
import Testing

/// The signal the schedules wait for before they act (D113): every waiter resumes when it is
/// set, a late waiter does not wait, and a cancelled waiter gives up instead of hanging shutdown.
@Suite struct ReadySignalTests {
    @Test func everyWaiterResumesWhenItIsSet() async {
        let signal = ReadySignal()
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<5 { group.addTask { await signal.wait() } }
            try? await Task.sleep(for: .milliseconds(50))
            #expect(!signal.isSet)
            signal.set()
            var results: [Bool] = []
            for await result in group { results.append(result) }
            #expect(results == Array(repeating: true, count: 5))
        }
    }

    @Test func aWaiterAfterItIsSetReturnsAtOnce() async {
        let signal = ReadySignal()
        signal.set()
        signal.set()
        #expect(signal.isSet)
        #expect(await signal.wait())
    }

    @Test func aCancelledWaiterGetsFalse() async {
        let signal = ReadySignal()
        let waiter = Task { await signal.wait() }
        try? await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        #expect(await waiter.value == false)
        // A waiter already cancelled when it starts waiting does not wait either.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await signal.wait()
        }
        #expect(await late.value == false)
    }
}

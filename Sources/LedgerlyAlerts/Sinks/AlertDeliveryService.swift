import ServiceLifecycle

/// Runs the dispatcher's deliveries (hooks, webhooks and their outbox) as a service of its own:
/// they run until shutdown, and are cancelled then, since the outbox keeps what is undelivered.
struct AlertDeliveryService: Service {
    let dispatcher: AlertDispatcher

    func run() async {
        await cancelWhenGracefulShutdown { await dispatcher.run() }
    }
}

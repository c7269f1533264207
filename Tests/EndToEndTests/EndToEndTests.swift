import Testing

/// Every end-to-end suite nests in this one, so they run one at a time: they start real
/// processes and kill them, and would fight over the machine's two cores if run in parallel.
@Suite(.serialized) struct EndToEndTests {}

package geoblocks.blockstore.wire;

/**
 * The bench net family of the file protocol (client {@code bench net}, docs/benchmarks.md): a
 * client's {@link Request} to its node, the node's {@link PeerRequest}s to the measured peer, the
 * {@link Stream} of test data and acknowledgements between the two, and the {@link Reply}s.
 * Encoded by {@link BenchCodec}.
 */
public sealed interface BenchOp extends FileOp {
    /** A client asks its node to measure the network to a peer. */
    sealed interface Request extends BenchOp, FileOp.Handled {
        @Override
        default Kind kind() {
            return Kind.CLIENT_REQUEST;
        }
    }

    /** The measuring node opens or ends a test at the peer; only a cluster member may. */
    sealed interface PeerRequest extends BenchOp, FileOp.Handled {
        @Override
        default Kind kind() {
            return Kind.PEER_REQUEST;
        }
    }

    /**
     * A test's data (node to peer, over TCP or UDP) and its acknowledgements (peer to node): counted
     * by the receiver's running test, without a membership check (as a client request); traffic of
     * no running test is ignored.
     */
    sealed interface Stream extends BenchOp, FileOp.Handled {
        @Override
        default Kind kind() {
            return Kind.CLIENT_REQUEST;
        }
    }

    /** The peer's report to the measuring node, and the node's result to the client. */
    sealed interface Reply extends BenchOp {
        @Override
        default Kind kind() {
            return Kind.REPLY;
        }
    }

    /**
     * Client to node: measure the network from this node to region {@code to}, iperf3-style, in
     * {@code mode} tcp (send {@code bytes} over {@code streams} windowed message streams on the
     * node-to-node connection), udp (offer {@code rateBps} per stream of {@code payload}-byte
     * datagrams for {@code durationMs}) or ledbat ({@code bytes} over {@code streams} LEDBAT
     * streams). Answered by {@link NetBenchResult} or {@link Failed}.
     */
    record NetBenchReq(long req, String to, String mode, int streams, long bytes, long rateBps, int durationMs,
            int payload) implements Request {}

    /** Node to peer: a bench test {@code test} in {@code mode} starts; the peer counts it and answers {@link Done}. */
    record NetBenchOpen(long req, long test, String mode) implements PeerRequest {}

    /** Node to peer, over TCP or UDP: bench bytes of stream {@code stream}, sent at the sender's {@code sentNanos}. */
    record NetBenchData(long req, long test, int stream, long seq, long sentNanos, byte[] data) implements Stream {}

    /** Peer to node: {@code bytes} of the TCP bench stream {@code stream} have arrived (cumulative). */
    record NetBenchAck(long req, long test, int stream, long bytes) implements Stream, Control {}

    /** Node to peer: the test ended; answered by {@link NetBenchReport}. */
    record NetBenchEnd(long req, long test) implements PeerRequest {}

    /**
     * Peer to node: what arrived of a test: datagrams/messages, bytes, RFC 3550 interarrival
     * jitter (nanoseconds) and the span from the first to the last arrival.
     */
    record NetBenchReport(long req, long packets, long bytes, long jitterNanos, long spanNanos) implements Reply {}

    /**
     * Node to client: one test's figures: what was sent (bytes, packets) and received, over
     * {@code nanos} (tcp and ledbat: from the start to the last byte acknowledged; udp: the
     * sending time), and the receiver's jitter.
     */
    record NetBenchResult(long req, String mode, int streams, long offeredBps, long sentBytes, long sentPackets,
            long receivedBytes, long receivedPackets, long nanos, long jitterNanos) implements Reply {}
}

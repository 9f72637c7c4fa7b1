package geoblocks.blockstore.wire;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An operation of the file protocol. Records, immutable; {@code req} ties replies to requests and
 * is allocated by whoever sent the request. The ops come in families, each sealed and in its own
 * file with its codec beside it:
 * <ul>
 * <li>{@link ClientOp} ({@link ClientCodec}): between clients and the node they talk to (the coordinator);
 * <li>{@link PeerOp} ({@link PeerCodec}): between nodes;
 * <li>{@link BenchOp} ({@link BenchCodec}): bench net traffic;
 * <li>{@link Shared} (here, encoded by {@link FileCodec}): the generic answers and the manifest
 *     parts every family uses.
 * </ul>
 * Each op says by its {@link #kind()} how a node takes it when it arrives: a request it hands to
 * the part registered for its class ({@code component.OpHandlers}), from anyone or only from a
 * cluster member, or a reply for the request waiting for it. Data-carrying ops carry at most
 * {@code chunk-bytes} of data (at most {@link FileCodec#MAX_DATA}, 16 MiB); whether that fits the
 * network's frame is up to {@code chunk-bytes}. {@link FileCodec}'s table gives each op its tag.
 */
public sealed interface FileOp permits ClientOp, PeerOp, BenchOp, FileOp.Shared {
    long req();

    /** How a node takes this op when it arrives. */
    Kind kind();

    /** How a node takes an op that arrives. */
    enum Kind {
        /** A request from anyone who proved the cluster secret (a client; bench streams). */
        CLIENT_REQUEST,
        /** A request only a cluster member may send; anyone else is answered Failed (INVALID). */
        PEER_REQUEST,
        /** An answer, handed to the request waiting for it. */
        REPLY
    }

    /**
     * Marks the op classes a node has a handler for: every request, and {@link ManifestPart} (a
     * publication). The file service checks at start that each has one.
     */
    interface Handled {}

    /**
     * Marks the control ops (manifest publication, claims, acknowledgements, flow credit, anti-entropy digests,
     * probes of a peer's state): the network sends them before the blocks it has queued to the same
     * peer ({@code NetMsg#isControl}). None of them relies on arriving after blocks sent before it:
     * a manifest is published only after the copies it names were acknowledged (or, with ack local,
     * before the queued copies are sent at all), and the others answer or steer the opposite
     * direction. Replies that end a transfer (Done, Failed, Committed) are not control: they must
     * follow the data they conclude.
     */
    interface Control {}

    /** Ops of every family: the generic answers and the parts of an encoded manifest. */
    sealed interface Shared extends FileOp {}

    /** Part of an encoded manifest: a reply (to stat, get or lookup) or a publication to store. */
    record ManifestPart(long req, boolean publish, int offset, int total, byte[] data) implements Shared, Handled, Control {
        /** A publication is a request only a cluster member may send; any other part answers a stat, get or lookup. */
        @Override
        public Kind kind() {
            return publish ? Kind.PEER_REQUEST : Kind.REPLY;
        }
    }

    /** Success, with a human-readable note (clipped like {@link Failed#error}). */
    record Done(long req, String info) implements Shared {
        public Done {
            info = clip(info);
        }

        @Override
        public Kind kind() {
            return Kind.REPLY;
        }
    }

    /**
     * Failure: its {@link FailureCode}, which callers act on, and a message for a person, which they
     * only show. Messages quote client input (names), so they are clipped to
     * {@value #MAX_TEXT_BYTES} UTF-8 bytes: every reply stays decodable.
     */
    record Failed(long req, FailureCode code, String error) implements Shared {
        public Failed {
            Objects.requireNonNull(code, "code");
            error = clip(error);
        }

        @Override
        public Kind kind() {
            return Kind.REPLY;
        }
    }

    /**
     * A request whose op tag this node does not know, sent by a newer peer at a version both speak
     * (file protocol 4 on): never written, only made by the decoder, so that the node answers it
     * {@link FailureCode#UNSUPPORTED} instead of leaving the sender to time out. The frame's length
     * lets the decoder skip the op's fields without knowing them.
     */
    record Unknown(long req, int tag) implements Shared, Handled {
        @Override
        public Kind kind() {
            return Kind.CLIENT_REQUEST;
        }
    }

    /** Longest {@link Failed}/{@link Done} text; well below the codec's string limit. */
    int MAX_TEXT_BYTES = 1024;

    /** {@code s} cut to at most {@link #MAX_TEXT_BYTES} UTF-8 bytes (at a character boundary), marked with "...". */
    static String clip(String s) {
        if (s == null) {
            return "";
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length <= MAX_TEXT_BYTES) {
            return s;
        }
        int end = MAX_TEXT_BYTES - 3;
        while (end > 0 && (b[end] & 0xC0) == 0x80) {
            end--; // do not split a multi-byte character
        }
        return new String(b, 0, end, StandardCharsets.UTF_8) + "...";
    }
}

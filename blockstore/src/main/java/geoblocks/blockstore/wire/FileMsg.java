package geoblocks.blockstore.wire;

import geoblocks.net.AccessKey;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.PeerVersions;
import java.util.Objects;
import se.sics.kompics.PatternExtractor;

/**
 * A file-protocol message: a header and one {@link FileOp}. Components subscribe
 * {@code ClassMatchedHandler}s per op type, so each handler sees only its op.
 */
public final class FileMsg extends NetMsg implements PatternExtractor<Class<Object>, FileOp> {
    private final FileOp op;
    private final int version;
    /** The access key of the connection it arrived on (never on the wire), or null. */
    private final AccessKey key;

    /** A message written at the lowest version this build speaks ({@link FileCodec#RANGE}), which every peer in range reads. */
    public FileMsg(NetHeader header, FileOp op) {
        this(header, op, FileCodec.RANGE.min());
    }

    /** A message written (or read) at file protocol {@code version}, one of {@link FileCodec#RANGE}. */
    public FileMsg(NetHeader header, FileOp op, int version) {
        this(header, op, version, null);
    }

    private FileMsg(NetHeader header, FileOp op, int version, AccessKey key) {
        super(header);
        this.key = key;
        this.op = Objects.requireNonNull(op, "op");
        if (!FileCodec.RANGE.contains(version)) {
            throw new IllegalArgumentException("file protocol version " + version + " is outside " + FileCodec.RANGE);
        }
        this.version = version;
    }

    /** A message to {@code header}'s destination, written at the file protocol version {@code versions} holds for it. */
    public static FileMsg to(PeerVersions versions, NetHeader header, FileOp op) {
        return new FileMsg(header, op, versions.versionFor(header.destination(), FileCodec.CODEC_ID, FileCodec.RANGE));
    }

    @Override
    public boolean servesKeys() {
        return true;
    }

    @Override
    public FileMsg fromKey(AccessKey key) {
        return new FileMsg(getHeader(), op, version, Objects.requireNonNull(key, "key"));
    }

    @Override
    public AccessKey key() {
        return key;
    }

    @Override
    public int wireVersion() {
        return version;
    }

    public FileOp op() {
        return op;
    }

    /** Control ops ({@link FileOp.Control}) overtake the blocks queued to the same peer. */
    @Override
    public boolean isControl() {
        return op instanceof FileOp.Control;
    }

    @Override
    public int wireSize() {
        return FileCodec.INSTANCE.encodedSize(this);
    }

    @SuppressWarnings("unchecked")
    @Override
    public Class<Object> extractPattern() {
        return (Class<Object>) (Class<?>) op.getClass();
    }

    @Override
    public FileOp extractValue() {
        return op;
    }

    @Override
    public String toString() {
        return "FileMsg(" + getHeader() + " " + op.getClass().getSimpleName() + " req=" + op.req() + ")";
    }
}

package geoblocks.blockstore.core;

import geoblocks.blockstore.wire.BlockStreamHeader;
import geoblocks.net.MalformedMessageException;
import java.util.Arrays;
import java.util.function.Function;

/**
 * One incoming background block stream, assembled in memory: first the {@link BlockStreamHeader}
 * (possibly split over several deliveries), then exactly {@code length} block bytes. The header is
 * admitted by a caller-supplied check (is this block expected from this peer, with this length and
 * CRC32C?), then the block's bytes are reserved in the node's transfer memory ({@link TransferMemory}). At the end of
 * the stream the length and CRC32C are verified. A stream is refused at the first problem: bad
 * header, not admitted, no memory, more or fewer bytes than announced, wrong CRC32C; a refused
 * stream keeps nothing and ignores the rest of its bytes. Invariant: budget bytes are held only
 * while assembling or after {@link #finish} returned {@link Complete} (the caller then releases
 * them once the block is stored). Pure: no I/O, no clock.
 */
public final class IncomingBlock {
    /** What the stream amounts to so far. */
    public sealed interface Outcome permits Assembling, Refused, Complete {}

    /** Still receiving; nothing to do yet. */
    public record Assembling() implements Outcome {}

    /** Refused; {@code header} is null when the header itself was bad. */
    public record Refused(BlockStreamHeader header, String reason) implements Outcome {}

    /** Every announced byte arrived and matches the header's CRC32C. */
    public record Complete(BlockStreamHeader header, byte[] data) implements Outcome {}

    private static final Assembling ASSEMBLING = new Assembling();

    private final TransferMemory budget;
    private final Function<BlockStreamHeader, String> admit;
    private byte[] head = new byte[BlockStreamHeader.PREFIX];
    private int headFill;
    private BlockStreamHeader header;
    private byte[] data;
    private int fill;
    private Refused refused;
    private boolean finished;
    private boolean admitted;

    /**
     * @param admit returns null to accept a header, else why it is refused
     */
    public IncomingBlock(TransferMemory budget, Function<BlockStreamHeader, String> admit) {
        this.budget = budget;
        this.admit = admit;
    }

    /** The header once decoded, else null. */
    public BlockStreamHeader header() {
        return header;
    }

    /** True once the header was admitted (the stream then owns its expectation, even if refused later). */
    public boolean admitted() {
        return admitted;
    }

    /** Takes the next bytes of the stream, in order. */
    public Outcome accept(byte[] bytes) {
        if (finished) {
            throw new IllegalStateException("stream already finished");
        }
        if (refused != null) {
            return refused;
        }
        int off = 0;
        while (off < bytes.length) {
            if (header == null) {
                int n = Math.min(head.length - headFill, bytes.length - off);
                System.arraycopy(bytes, off, head, headFill, n);
                headFill += n;
                off += n;
                if (headFill == head.length) {
                    Outcome o = headerFilled();
                    if (o != ASSEMBLING) {
                        return o;
                    }
                }
            } else {
                int n = bytes.length - off;
                if (n > data.length - fill) {
                    return refuse("more than the announced " + data.length + " bytes of block " + header.blockId());
                }
                System.arraycopy(bytes, off, data, fill, n);
                fill += n;
                off += n;
            }
        }
        return ASSEMBLING;
    }

    /** The stream ended (its sender closed it): the verdict. */
    public Outcome finish() {
        if (finished) {
            throw new IllegalStateException("stream already finished");
        }
        finished = true;
        if (refused != null) {
            return refused;
        }
        if (header == null) {
            return refuse("stream ended after " + headFill + " header bytes");
        }
        if (fill != data.length) {
            return refuse("block " + header.blockId() + " ended after " + fill + " of " + data.length + " bytes");
        }
        int crc = Checksums.crc32c(data);
        if (crc != header.crc()) {
            return refuse("block " + header.blockId() + " has checksum " + Checksums.hex(crc) + ", header says "
                    + Checksums.hex(header.crc()));
        }
        return new Complete(header, data);
    }

    /** The stream broke off: gives back what it held. */
    public void abandon() {
        if (refused == null && data != null && !finished) {
            budget.release(data.length);
        }
        data = null;
        finished = true;
    }

    private Outcome headerFilled() {
        try {
            if (head.length == BlockStreamHeader.PREFIX) {
                int size = BlockStreamHeader.size(head);
                head = Arrays.copyOf(head, size);
                return ASSEMBLING;
            }
            header = BlockStreamHeader.decode(head);
        } catch (MalformedMessageException e) {
            return refuse(e.getMessage());
        }
        String no = admit.apply(header);
        if (no != null) {
            return refuse(no);
        }
        admitted = true;
        if (!budget.tryReserve(header.length())) {
            return refuse(budget.busy(header.length()));
        }
        data = new byte[header.length()];
        return ASSEMBLING;
    }

    private Refused refuse(String reason) {
        if (data != null) {
            budget.release(data.length);
            data = null;
        }
        refused = new Refused(header, reason);
        return refused;
    }
}

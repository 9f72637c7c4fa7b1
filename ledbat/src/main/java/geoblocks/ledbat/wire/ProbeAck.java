package geoblocks.ledbat.wire;

import geoblocks.net.NetHeader;

/**
 * The answer to a {@link ProbePacket}: its probe id and the size of its encoding as received, so the
 * sender confirms exactly the size that passed the path.
 */
public final class ProbeAck extends LedbatPacket {
    private final int probeSize;

    public ProbeAck(NetHeader header, int probeId, int probeSize) {
        super(requireHeader(header), probeId);
        if (probeSize < 0 || probeSize > 0xffff) {
            throw new IllegalArgumentException("probe size must be in 0..65535, was " + probeSize);
        }
        this.probeSize = probeSize;
    }

    public int probeId() {
        return flowId();
    }

    /** Bytes of the probe's encoding (as {@link LedbatCodec#encodedSize}) that arrived. */
    public int probeSize() {
        return probeSize;
    }

    @Override
    public String toString() {
        return "ProbeAck{id=" + flowId() + " size=" + probeSize + "}";
    }
}

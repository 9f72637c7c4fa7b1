package geoblocks.ledbat.wire;

import geoblocks.net.NetHeader;

/**
 * A path MTU probe (RFC 8899 section 4.1: a probe packet padded to the size being tried, carrying no
 * application data): the sender's probe id and {@code padding} zero bytes that make the datagram as
 * large as the size the sender's {@code PathMtuSearch} tries. The receiver answers with a
 * {@link ProbeAck} naming the size it received. Its loss is no congestion signal. The network sends it
 * in a datagram of its own ({@link #alone()}), so its refusal takes no data with it.
 */
public final class ProbePacket extends LedbatPacket {
    private final int padding;

    public ProbePacket(NetHeader header, int probeId, int padding) {
        super(requireHeader(header), probeId);
        if (padding < 0 || padding > LedbatCodec.MAX_PROBE_PADDING) {
            throw new IllegalArgumentException("probe padding must be in 0.." + LedbatCodec.MAX_PROBE_PADDING
                    + " bytes, was " + padding);
        }
        this.padding = padding;
    }

    /** The probe packet of {@code header} whose encoding is {@code encodedSize} bytes (padded to it). */
    public static ProbePacket ofSize(NetHeader header, int probeId, int encodedSize) {
        return new ProbePacket(header, probeId, encodedSize - LedbatCodec.probeFixedSize(header));
    }

    public int probeId() {
        return flowId();
    }

    public int padding() {
        return padding;
    }

    @Override
    public boolean alone() {
        return true;
    }

    @Override
    public String toString() {
        return "Probe{id=" + flowId() + " size=" + wireSize() + "}";
    }
}

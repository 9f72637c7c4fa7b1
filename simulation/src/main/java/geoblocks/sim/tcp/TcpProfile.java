package geoblocks.sim.tcp;

import geoblocks.ledbat.core.RtoEstimator;
import java.io.Serializable;

/**
 * What kind of TCP a simulated flow is, beyond its congestion control: segment and header sizes,
 * the RTO rule, whether it opens with a SYN exchange and whether the receiver delays ACKs.
 * {@code reno} and {@code cubic} are the textbook flows (MSS 1460, 40-byte headers, RFC 6298 RTO
 * with a 1 s minimum, no handshake, an ACK per segment); {@code linux-cubic} is the kernel flow of
 * the real-link script: Linux CUBIC with HyStart ({@link LinuxCubic}), MSS 1448 with the 12-byte
 * timestamp option (52 header bytes), RTO = SRTT + max(4 RTTVAR, 200 ms), a SYN / SYN-ACK exchange
 * (one RTT, queue included) before the first data, and a receiver that acknowledges every second
 * full segment at once, anything out of order at once, and a lone segment after 40 ms.
 */
public record TcpProfile(String congestionControl, int mss, int headerBytes, long minRtoNs, boolean linuxRto,
        boolean handshake, boolean delayedAcks, int initialWindow) implements Serializable {

    public static TcpProfile of(String congestionControl) {
        return switch (congestionControl) {
            case "reno", "cubic" -> new TcpProfile(congestionControl, 1460, TcpSegment.HEADER_BYTES, 1_000_000_000L, false,
                    false, false, 10);
            case "linux-cubic" -> new TcpProfile(congestionControl, 1448, 52, 200_000_000L, true, true, true, 10);
            default -> throw new IllegalArgumentException(
                    "congestion control must be reno, cubic or linux-cubic, was '" + congestionControl + "'");
        };
    }

    RtoEstimator rto() {
        return new RtoEstimator(1_000_000_000L, minRtoNs, 60_000_000_000L, TcpSenderCore.GRANULARITY_NS,
                linuxRto ? RtoEstimator.Rule.LINUX : RtoEstimator.Rule.RFC_6298);
    }
}

package geoblocks.app.ledbat;

import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.net.NetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Positive;

/**
 * Server side of the test application: checksums every incoming stream (CRC32C, in order), and when
 * a stream closes reports bytes and checksum back to its sender on a reverse stream
 * ({@link ResultRecord}). Prints one line per finished stream.
 */
public final class ServerDriver extends ComponentDefinition {
    private final Positive<LedbatPort> ledbat = requires(LedbatPort.class);
    private final Map<String, Incoming> incoming = new HashMap<>();
    private final Map<Long, byte[]> pendingReplies = new HashMap<>();
    private long nextTag;

    private static final class Incoming {
        final CRC32C crc = new CRC32C();
        long bytes;
        final long startNanos = System.nanoTime();
    }

    public ServerDriver() {
        handle(ledbat, DataReceived.class, this::onData);
        handle(ledbat, StreamClosed.class, this::onClosed);
        handle(ledbat, StreamOpened.class, this::onOpened);
        handle(ledbat, StreamFailed.class, f -> {
            incoming.remove(key(f.peer(), f.streamId()));
            System.out.println("stream " + f.streamId() + " from " + f.peer() + " failed: " + f.reason());
        });
    }

    private static String key(NetAddress peer, int id) {
        return peer + "/" + id;
    }

    private void onData(DataReceived d) {
        Incoming in = incoming.computeIfAbsent(key(d.peer(), d.streamId()), k -> new Incoming());
        in.crc.update(d.data());
        in.bytes += d.data().length;
    }

    private void onClosed(StreamClosed c) {
        if (c.sender()) {
            return; // one of our result streams
        }
        Incoming in = incoming.remove(key(c.peer(), c.streamId()));
        if (in == null) {
            in = new Incoming();
        }
        double secs = (System.nanoTime() - in.startNanos) / 1e9;
        System.out.printf("stream %d from %s: %d bytes in %.2f s = %.1f Mbit/s, crc32c %08x%n", c.streamId(),
                c.peer(), in.bytes, secs, in.bytes * 8 / secs / 1e6, in.crc.getValue());
        long tag = nextTag++;
        pendingReplies.put(tag, new ResultRecord(c.streamId(), in.bytes, in.crc.getValue(),
                (int) Math.min(Integer.MAX_VALUE, (long) (secs * 1000))).encode());
        trigger(new OpenStream(c.peer(), tag), ledbat);
    }

    private void onOpened(StreamOpened o) {
        byte[] reply = pendingReplies.remove(o.tag());
        if (reply != null) {
            trigger(new SendData(o.streamId(), reply), ledbat);
            trigger(new CloseStream(o.streamId()), ledbat);
        }
    }
}

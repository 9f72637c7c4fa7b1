package geoblocks.ledbat.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.ledbat.wire.AckPacket;
import geoblocks.ledbat.wire.DataPacket;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.ledbat.wire.LedbatPacket;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.netty.CodecSerializer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/**
 * While a transfer runs, a plain socket sprays both nodes with random bytes, truncated and
 * oversized LEDBAT datagrams, packets of unknown streams and ACKs of data never sent: the transfer
 * completes intact and the junk is counted by the serializer.
 */
class MalformedDatagramTest {

    @Test
    void transfer_underGarbageDatagrams_survivesAndCountsThem() throws Exception {
        NetAddress[] ab = Loopback.addresses();
        long bytes = 32L << 20;
        // sprays while the transfer runs; the nodes stay up until the spraying is over
        TransferResult r = Loopback.run(ab, null, 1, bytes, 90, Map.of("stats-interval-ms", 20), result -> spray(ab, result));
        assertEquals(0, r.done.getCount(), "stream still open; failure: " + r.firstFailure);
        assertEquals(0, r.corruptBytes.get());
        assertEquals(bytes, r.receivedBytes.values().iterator().next());
        assertTrue(CodecSerializer.rejected() > 50, "rejected " + CodecSerializer.rejected());
        assertTrue(r.stale.get() > 10, "stale datagrams counted by the component: " + r.stale.get());
        assertTrue(r.invalid.get() + r.stale.get() > 20);
    }

    private static void spray(NetAddress[] ab, TransferResult result) {
        Random rnd = new Random(3);
        LedbatCodec c = LedbatCodec.INSTANCE;
        NetAddress stranger = NetAddress.of("127.0.0.1", 9);
        try (DatagramSocket s = new DatagramSocket()) {
            awaitFirstData(result);
            for (int i = 0; i < 5_000; i++) {
                NetAddress to = ab[i % 2];
                byte[] b;
                switch (i % 5) {
                    case 0 -> {
                        b = new byte[rnd.nextInt(1400) + 1];
                        rnd.nextBytes(b);
                    }
                    case 1 -> { // valid DATA truncated: serializer id + cut body
                        byte[] full = frame(c, new DataPacket(new NetHeader(stranger, to, Transport.UDP), 5, 0, 0,
                                3, false, false, new byte[1000], 0, 1000));
                        b = Arrays.copyOf(full, rnd.nextInt(full.length - 1) + 1);
                    }
                    case 2 -> { // DATA of an unknown flow far ahead (stale)
                        b = frame(c, new DataPacket(new NetHeader(stranger, to, Transport.UDP), rnd.nextInt(), 1L << 40,
                                0, rnd.nextInt(), false, false, new byte[10], 0, 10));
                    }
                    case 3 -> { // ACK of an unknown flow / of data never sent
                        b = frame(c, new AckPacket(new NetHeader(ab[(i + 1) % 2], to, Transport.UDP), rnd.nextInt(),
                                1L << 50, 0, 0, 0, 0, new byte[0]));
                    }
                    default -> { // oversized payload length field
                        byte[] full = frame(c, new DataPacket(new NetHeader(stranger, to, Transport.UDP), 5, 0, 0,
                                3, false, false, new byte[100], 0, 100));
                        ByteBuffer.wrap(full).putShort(full.length - 102, (short) 60000);
                        b = full;
                    }
                }
                s.send(new DatagramPacket(b, b.length, to.asSocket()));
                if (i % 20 == 0) {
                    Thread.sleep(1);
                }
            }
            Thread.sleep(300); // let the component's 20 ms statistics report the counts
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Both nodes are bound once data crossed from one to the other. */
    private static void awaitFirstData(TransferResult result) throws InterruptedException {
        for (int tries = 0; tries < 1000 && result.receivedBytes.isEmpty(); tries++) {
            Thread.sleep(10);
        }
    }

    private static byte[] frame(LedbatCodec c, LedbatPacket p) {
        ByteBuffer b = ByteBuffer.allocate(1 + c.encodedSize(p));
        b.put((byte) LedbatCodec.SERIALIZER_ID);
        c.encode(p, b);
        return b.array();
    }
}

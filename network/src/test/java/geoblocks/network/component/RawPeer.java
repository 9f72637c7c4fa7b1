package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.NetMsg;
import geoblocks.network.frame.Control;
import geoblocks.network.frame.Frames;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

/**
 * A plain-socket client of a GeoNetwork in security "auth" (no TLS): writes raw bytes or frames
 * and reads frames, so tests can play an attacker or a hand-written peer.
 */
final class RawPeer implements AutoCloseable {
    static final int TIMEOUT_MS = 5_000;
    final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawPeer(NetAddress node) throws IOException {
        this(new Socket(node.getIp(), node.getPort()));
    }

    /** Wraps a connected socket, e.g. one a node dialled and the test accepted. */
    RawPeer(Socket connected) throws IOException {
        socket = connected;
        socket.setSoTimeout(TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void writeFrame(int kind, byte[] body) throws IOException {
        write(ByteBuffer.allocate(Frames.LENGTH_BYTES + 1 + body.length)
                .putInt(1 + body.length).put((byte) kind).put(body).array());
    }

    void writeControl(Control c) throws IOException {
        ByteBuffer body = ByteBuffer.allocate(Control.size(c));
        Control.write(c, body);
        writeFrame(Frames.CONTROL, body.array());
    }

    void writeMessage(int codecId, NetMsg m) throws IOException {
        ByteBuffer body = ByteBuffer.allocate(TestMsg.CODEC.encodedSize((TestMsg) m));
        TestMsg.CODEC.encode((TestMsg) m, body);
        writeFrame(codecId, body.array());
    }

    /** Reads one frame: [kind, body...]. */
    byte[] readFrame() throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        return frame;
    }

    /** Reads one data frame of {@code codecId} holding a TestMsg. */
    TestMsg readMessage(int codecId) throws IOException, MalformedMessageException {
        byte[] f = readFrame();
        assertEquals(codecId, f[0] & 0xFF, "a data frame");
        return TestMsg.CODEC.decode(ByteBuffer.wrap(f, 1, f.length - 1));
    }

    Control readControl() throws IOException, MalformedMessageException {
        byte[] f = readFrame();
        assertEquals(Frames.CONTROL, f[0], "a control frame");
        return Control.read(ByteBuffer.wrap(f, 1, f.length - 1));
    }

    <T extends Control> T readControl(Class<T> type) throws IOException, MalformedMessageException {
        return assertInstanceOf(type, readControl());
    }

    /** Reads (and discards) until the node closes the connection; fails after the socket timeout. */
    void awaitClosedByNode() throws IOException {
        byte[] sink = new byte[4096];
        try {
            while (in.read(sink) >= 0) {
                // the node's HELLO and anything else it sent before closing
            }
        } catch (SocketTimeoutException e) {
            fail("the node did not close the connection within " + TIMEOUT_MS + " ms");
        } catch (SocketException | EOFException e) {
            // reset: the node closed with our unread bytes in its receive buffer
        }
    }

    /** Waits (bounded) until {@code counter} reaches {@code atLeast}; returns the final value. */
    static long awaitCount(LongSupplier counter, long atLeast) throws InterruptedException {
        long end = System.nanoTime() + 5_000_000_000L;
        while (counter.getAsLong() < atLeast && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        return counter.getAsLong();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

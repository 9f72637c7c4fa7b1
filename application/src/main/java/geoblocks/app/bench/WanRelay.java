package geoblocks.app.bench;

import geoblocks.net.WanPath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on loopback that puts the emulated WAN between a plain TCP client (curl, an S3 SDK)
 * and one node's HTTP port: every byte each way is held as {@link WanPath} decides for a reliable
 * transport on a path of {@code rttMs} at {@code lossRate} (the one-way delay, and at a loss rate
 * above 0 no faster than TCP's loss-limited rate), the same model the nodes' {@code WanEmulator}
 * applies to their TCP messages. At most {@link #MAX_QUEUED} bytes wait per direction: beyond that
 * the relay stops reading, so memory stays bounded and the sender feels back-pressure as from a
 * full window. Threads: one acceptor, two per connection (reader and writer per direction share
 * one pump object); {@link #close} ends them all.
 */
final class WanRelay implements AutoCloseable {
    static final int MAX_QUEUED = 32 << 20;
    private static final int CHUNK = 64 << 10;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final double rttMs;
    private final double lossRate;
    private final List<Socket> open = new ArrayList<>();
    private volatile boolean closed;

    WanRelay(InetSocketAddress target, double rttMs, double lossRate) throws IOException {
        new WanPath(rttMs, lossRate, true, new Random(0)); // checks the parameters now
        this.target = target;
        this.rttMs = rttMs;
        this.lossRate = lossRate;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "wan-relay-accept-" + server.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    /** The loopback port clients connect to instead of the target's. */
    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket in = server.accept();
                Socket out = new Socket();
                out.connect(target, 10_000);
                in.setTcpNoDelay(true);
                out.setTcpNoDelay(true);
                synchronized (open) {
                    open.add(in);
                    open.add(out);
                }
                new Pump(in, out, "up").start();
                new Pump(out, in, "down").start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("wan relay: " + e.getMessage());
                }
            }
        }
    }

    /** One direction: reads from {@code from}, holds each chunk until its release time, writes it to {@code to}. */
    private final class Pump {
        private final Socket from;
        private final Socket to;
        private final String name;
        private final WanPath path = new WanPath(rttMs, lossRate, true, new Random(0));
        private final ArrayDeque<long[]> times = new ArrayDeque<>();
        private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
        private long queued;
        private boolean eof;

        Pump(Socket from, Socket to, String name) {
            this.from = from;
            this.to = to;
            this.name = name;
        }

        void start() {
            thread(this::read, "read");
            thread(this::write, "write");
        }

        private void thread(Runnable r, String role) {
            Thread t = new Thread(r, "wan-relay-" + name + "-" + role);
            t.setDaemon(true);
            t.start();
        }

        private void read() {
            byte[] buf = new byte[CHUNK];
            try {
                InputStream in = from.getInputStream(); // not closed here: that would close the socket both ways
                int n;
                while ((n = in.read(buf)) >= 0) {
                    synchronized (this) {
                        while (queued >= MAX_QUEUED && !closed) {
                            wait(100);
                        }
                        times.add(new long[] {path.releaseNanos(System.nanoTime(), n)});
                        chunks.add(Arrays.copyOf(buf, n));
                        queued += n;
                        notifyAll();
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the connection ended or the relay closed
            }
            synchronized (this) {
                eof = true;
                notifyAll();
            }
        }

        private void write() {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    long release;
                    byte[] chunk;
                    synchronized (this) {
                        while (chunks.isEmpty() && !eof && !closed) {
                            wait(100);
                        }
                        if (chunks.isEmpty() || closed) {
                            break;
                        }
                        release = times.peek()[0];
                        chunk = chunks.peek();
                    }
                    long wait;
                    while ((wait = release - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    out.write(chunk);
                    synchronized (this) {
                        times.poll();
                        chunks.poll();
                        queued -= chunk.length;
                        notifyAll();
                    }
                }
                to.shutdownOutput();
            } catch (IOException | InterruptedException e) {
                // the connection ended or the relay closed
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        synchronized (open) {
            for (Socket s : open) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        }
    }
}

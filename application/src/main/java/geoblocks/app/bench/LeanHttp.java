package geoblocks.app.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A lean HTTP/1.1 client for benchmarks: one blocking keep-alive connection per calling thread, the
 * request written in one flush, the response read by Content-Length or chunked encoding. It does
 * not follow redirects, speak TLS or pipeline. The JDK's {@code HttpClient} costs about 0.5 ms of
 * CPU per small request on this machine kind, which made the client the limit of {@code bench meta}
 * against geoblocks and Garage alike.
 */
final class LeanHttp implements AutoCloseable {
    /** A response: status and body. */
    record Response(int status, byte[] body) {}

    private final InetSocketAddress address;
    private final String host;
    private final int timeoutMs;
    private final ThreadLocal<Conn> conns = new ThreadLocal<>();
    private final Set<Conn> all = ConcurrentHashMap.newKeySet();

    LeanHttp(String hostName, int port, int timeoutMs) {
        this.address = new InetSocketAddress(hostName, port);
        this.host = port == 80 ? hostName : hostName + ":" + port;
        this.timeoutMs = timeoutMs;
    }

    /** The Host header's value. */
    String host() {
        return host;
    }

    /**
     * Sends one request ({@code target}: path and query, already encoded) and reads its response. A
     * kept connection the server closed before answering is replaced once; any other failure is thrown.
     */
    Response send(String method, String target, Map<String, String> headers, byte[] body) throws IOException {
        Conn c = conns.get();
        boolean reused = c != null;
        if (c == null) {
            c = open();
        }
        try {
            return c.exchange(method, target, headers, body);
        } catch (StaleConnection e) {
            c.close();
            conns.remove();
            if (!reused) {
                throw new IOException("connection to " + host + " closed before an answer");
            }
            return open().exchange(method, target, headers, body);
        } catch (IOException | RuntimeException e) {
            c.close();
            conns.remove();
            throw e;
        }
    }

    private Conn open() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setSoTimeout(timeoutMs);
        s.connect(address, timeoutMs);
        Conn c = new Conn(s);
        conns.set(c);
        all.add(c);
        return c;
    }

    @Override
    public void close() {
        all.forEach(Conn::close);
    }

    /** The server closed a kept connection before sending a byte of the answer. */
    private static final class StaleConnection extends IOException {
        StaleConnection() {
            super("stale connection");
        }
    }

    private final class Conn {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final StringBuilder line = new StringBuilder(128);

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 16384);
            this.out = new BufferedOutputStream(socket.getOutputStream(), 16384);
        }

        Response exchange(String method, String target, Map<String, String> headers, byte[] body) throws IOException {
            StringBuilder h = new StringBuilder(512).append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ")
                    .append(host).append("\r\n");
            headers.forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
            if (body.length > 0 || method.equals("PUT") || method.equals("POST")) {
                h.append("Content-Length: ").append(body.length).append("\r\n");
            }
            h.append("\r\n");
            try {
                out.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
            } catch (IOException e) { // nothing was answered: a kept connection the server had closed
                throw new StaleConnection();
            }
            String status = readLine(true);
            if (!status.startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP/1.x answer from " + host + ": " + status);
            }
            int code = Integer.parseInt(status.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean close = status.startsWith("HTTP/1.0");
            for (String l = readLine(false); !l.isEmpty(); l = readLine(false)) {
                int colon = l.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = l.substring(0, colon).trim();
                String value = l.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    close = value.equalsIgnoreCase("close");
                }
            }
            byte[] content;
            if (method.equals("HEAD") || code == 204 || code == 304 || code / 100 == 1) {
                content = new byte[0];
            } else if (chunked) {
                content = readChunked();
            } else if (length >= 0) {
                content = in.readNBytes((int) length);
                if (content.length != length) {
                    throw new EOFException("answer from " + host + " ended after " + content.length + " of " + length + " bytes");
                }
            } else {
                content = in.readAllBytes();
                close = true;
            }
            if (close) {
                close();
                conns.remove();
            }
            return new Response(code, content);
        }

        private byte[] readChunked() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            while (true) {
                String size = readLine(false);
                int semi = size.indexOf(';');
                int n = Integer.parseInt((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
                if (n == 0) {
                    while (!readLine(false).isEmpty()) { // trailers
                    }
                    return b.toByteArray();
                }
                byte[] chunk = in.readNBytes(n);
                if (chunk.length != n) {
                    throw new EOFException("chunk from " + host + " cut short");
                }
                b.write(chunk);
                readLine(false);
            }
        }

        /** One line without its CRLF; {@code first}: EOF before any byte means the server closed a kept connection. */
        private String readLine(boolean first) throws IOException {
            line.setLength(0);
            while (true) {
                int c = in.read();
                if (c < 0) {
                    if (first && line.length() == 0) {
                        throw new StaleConnection();
                    }
                    throw new EOFException("answer from " + host + " cut short");
                }
                if (c == '\n') {
                    int n = line.length();
                    if (n > 0 && line.charAt(n - 1) == '\r') {
                        line.setLength(n - 1);
                    }
                    return line.toString();
                }
                line.append((char) c);
            }
        }

        void close() {
            all.remove(this);
            try {
                socket.close();
            } catch (IOException e) {
                // closing: nothing more to do
            }
        }
    }
}

package geoblocks.app.ledbat;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * A dependency-free (Java2D) plot of LEDBAT runs: three stacked panels over a shared time axis:
 * throughput of every LEDBAT stream and of TCP, LEDBAT cwnd, and LEDBAT queuing delay.
 */
final class Plotter {
    private static final Color[] LEDBAT_COLORS = {new Color(0x1f77b4), new Color(0x2ca02c), new Color(0x9467bd),
        new Color(0x17becf)};
    private static final Color TCP_COLOR = new Color(0xd62728);
    private static final int W = 1100;
    private static final int PANEL_H = 280;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int TOP = 50;
    private static final int GAP = 45;

    /** One flow's samples: time (s), throughput (Mbit/s), cwnd (KiB), queuing delay (ms). */
    record Series(String name, double[] t, double[] mbps, double[] cwndKiB, double[] qdMs) {}

    private Plotter() {}

    static List<Series> readLedbat(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches("stream-\\d+\\.csv")).sorted().toList();
        }
        List<Series> out = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            String[] head = lines.get(0).split(",");
            int t = col(head, "time_s", f);
            int thr = col(head, "throughput_mbps", f);
            int cw = col(head, "cwnd_bytes", f);
            int qd = col(head, "queuing_delay_ms", f);
            int n = lines.size() - 1;
            double[][] v = new double[4][n];
            for (int i = 0; i < n; i++) {
                String[] c = lines.get(i + 1).split(",");
                v[0][i] = Double.parseDouble(c[t]);
                v[1][i] = Double.parseDouble(c[thr]);
                v[2][i] = Double.parseDouble(c[cw]) / 1024;
                v[3][i] = Double.parseDouble(c[qd]);
            }
            out.add(new Series("LEDBAT " + f.getFileName().toString().replace(".csv", ""), v[0], v[1], v[2], v[3]));
        }
        return out;
    }

    /** A CSV with header {@code time_s,throughput_mbps}. */
    static Series readTcp(Path csv, double offset) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        int n = lines.size() - 1;
        double[] t = new double[n];
        double[] m = new double[n];
        for (int i = 0; i < n; i++) {
            String[] c = lines.get(i + 1).split(",");
            t[i] = Double.parseDouble(c[0]) + offset;
            m[i] = Double.parseDouble(c[1]);
        }
        return new Series("TCP (cubic)", t, m, null, null);
    }

    /**
     * A run's {@code series.csv} (scripts/reallink/linkmetrics.py: time_s, bg_mbps, tcp_mbps,
     * qdelay_ms, blanks where nothing was measured) as two series named {@code label}: the
     * background flow (throughput and queuing delay) and the TCP flow of that run.
     */
    static Series[] readSeries(Path csv, String label) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        String[] head = lines.get(0).split(",");
        int ti = col(head, "time_s", csv);
        int bi = col(head, "bg_mbps", csv);
        int ci = col(head, "tcp_mbps", csv);
        int qi = col(head, "qdelay_ms", csv);
        int n = lines.size() - 1;
        double[][] v = new double[4][n];
        double q = 0;
        for (int i = 0; i < n; i++) {
            String[] c = lines.get(i + 1).split(",", -1);
            v[0][i] = Double.parseDouble(c[ti]);
            v[1][i] = c[bi].isEmpty() ? 0 : Double.parseDouble(c[bi]);
            v[2][i] = c[ci].isEmpty() ? 0 : Double.parseDouble(c[ci]);
            q = c[qi].isEmpty() ? q : Double.parseDouble(c[qi]);   // ping every 100 ms: carry a missing bin
            v[3][i] = q;
        }
        return new Series[] {new Series(label, v[0], v[1], null, v[3]), new Series(label, v[0], v[2], null, null)};
    }

    /** Runs side by side: every run's background throughput, its TCP's throughput, and the queuing delay. */
    static void renderCompare(String title, List<Series> background, List<Series> tcp, Path out) throws IOException {
        BufferedImage img = threePanelImage();
        Graphics2D g = titled(img, title);
        double tMax = lastTime(background);
        panel(g, 0, "background flow throughput (Mbit/s)", background, Series::mbps, tMax);
        panel(g, 1, "TCP cubic throughput (Mbit/s), same runs", tcp, Series::mbps, tMax);
        panel(g, 2, "queuing delay at the bottleneck, ping (ms)", background, Series::qdMs, tMax);
        g.dispose();
        ImageIO.write(img, "png", out.toFile());
    }

    /** A blank canvas for three stacked panels under a title line. */
    private static BufferedImage threePanelImage() {
        return new BufferedImage(W, TOP + 3 * PANEL_H + 3 * GAP, BufferedImage.TYPE_INT_RGB);
    }

    /** White background, antialiasing, and {@code title} at the top; the graphics to draw the panels with. */
    private static Graphics2D titled(BufferedImage img, String title) {
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, LEFT, 28);
        return g;
    }

    /** The latest time of any of {@code series} (0 if none). */
    private static double lastTime(List<Series> series) {
        double tMax = 0;
        for (Series s : series) {
            tMax = Math.max(tMax, max(s.t()));
        }
        return tMax;
    }

    private static int col(String[] head, String name, Path f) {
        for (int i = 0; i < head.length; i++) {
            if (head[i].trim().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(f + " has no column " + name);
    }

    static void render(String title, List<Series> ledbat, Series tcp, Path out) throws IOException {
        BufferedImage img = threePanelImage();
        Graphics2D g = titled(img, title);
        double tMax = lastTime(ledbat);
        if (tcp != null) {
            tMax = Math.max(tMax, max(tcp.t()));
        }
        List<Series> thr = new ArrayList<>(ledbat);
        if (tcp != null) {
            thr.add(tcp);
        }
        panel(g, 0, "throughput (Mbit/s)", thr, Series::mbps, tMax);
        panel(g, 1, "LEDBAT cwnd (KiB)", ledbat, Series::cwndKiB, tMax);
        panel(g, 2, "LEDBAT queuing delay (ms)", ledbat, Series::qdMs, tMax);
        g.dispose();
        ImageIO.write(img, "png", out.toFile());
    }

    private static void panel(Graphics2D g, int index, String label, List<Series> series,
            Function<Series, double[]> y, double tMax) {
        int top = TOP + index * (PANEL_H + GAP);
        int plotW = W - LEFT - RIGHT;
        double yMax = 0;
        for (Series s : series) {
            yMax = Math.max(yMax, max(y.apply(s)));
        }
        yMax = niceCeil(yMax <= 0 ? 1 : yMax * 1.05);
        double step = niceCeil(Math.max(tMax, 1) / 15);
        tMax = Math.ceil(Math.max(tMax, 1) / step) * step;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setStroke(new BasicStroke(1));
        for (int i = 0; i <= 5; i++) {
            int py = top + PANEL_H - i * PANEL_H / 5;
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(LEFT, py, LEFT + plotW, py);
            g.setColor(Color.DARK_GRAY);
            g.drawString(fmt(yMax * i / 5), 8, py + 4);
        }
        for (double t = 0; t <= tMax + 1e-9; t += step) {
            int px = x(t, tMax, plotW);
            g.setColor(new Color(0xeeeeee));
            g.drawLine(px, top, px, top + PANEL_H);
            g.setColor(Color.DARK_GRAY);
            g.drawString(fmt(t), px - 6, top + PANEL_H + 14);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, top, plotW, PANEL_H);
        g.drawString(label + "  vs  time (s)", LEFT + 5, top - 6);
        int legendX = LEFT + plotW - 170;
        int li = 0;
        g.setStroke(new BasicStroke(1.8f));
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            Color c = s.name().startsWith("TCP") ? TCP_COLOR : LEDBAT_COLORS[k % LEDBAT_COLORS.length];
            double[] ys = y.apply(s);
            g.setColor(c);
            for (int i = 1; i < s.t().length; i++) {
                g.drawLine(x(s.t()[i - 1], tMax, plotW), yPix(ys[i - 1], yMax, top), x(s.t()[i], tMax, plotW),
                        yPix(ys[i], yMax, top));
            }
            g.drawLine(legendX, top + 14 + li * 16, legendX + 20, top + 14 + li * 16);
            g.drawString(s.name(), legendX + 26, top + 18 + li * 16);
            li++;
        }
    }

    private static int x(double t, double tMax, int plotW) {
        return LEFT + (int) Math.round(plotW * t / tMax);
    }

    private static int yPix(double v, double yMax, int top) {
        return top + PANEL_H - (int) Math.round(PANEL_H * Math.max(0, Math.min(v, yMax)) / yMax);
    }

    private static double max(double[] v) {
        double m = 0;
        for (double d : v) {
            m = Math.max(m, d);
        }
        return m;
    }

    private static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double f : new double[] {1, 2, 2.5, 5, 10}) {
            if (f * p >= v) {
                return f * p;
            }
        }
        return 10 * p;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}

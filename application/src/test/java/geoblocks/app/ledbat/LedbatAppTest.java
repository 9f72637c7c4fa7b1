package geoblocks.app.ledbat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.app.Main;
import geoblocks.ledbat.port.StreamStats;
import geoblocks.net.NetAddress;
import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test application's pieces that need no network: result records, CSV, plot, argument errors. */
class LedbatAppTest {

    @Test
    void resultRecord_roundTrip_andBadMagicRejected() {
        ResultRecord r = new ResultRecord(42, 123_456_789L, 0xCAFEBABEL, 7_000);
        byte[] b = r.encode();
        assertEquals(ResultRecord.SIZE, b.length);
        assertEquals(r, ResultRecord.decode(ByteBuffer.wrap(b)));
        b[0] = 0;
        assertThrows(IllegalArgumentException.class, () -> ResultRecord.decode(ByteBuffer.wrap(b)));
    }

    @Test
    void statsCsv_writesHeaderAndOneRowPerStats_withThroughputFromAckedDelta(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("stream-0.csv");
        NetAddress peer = NetAddress.of("127.0.0.1", 7400);
        try (StatsCsv csv = new StatsCsv(f, 0)) {
            csv.row(stats(peer, 100_000, 0));
            csv.row(stats(peer, 200_000, 1_250_000));   // 1.25 MB in 100 ms = 100 Mbit/s
        }
        List<String> lines = Files.readAllLines(f);
        assertEquals(StatsCsv.HEADER, lines.get(0));
        assertEquals(15, lines.get(0).split(",").length);
        assertEquals(15, lines.get(2).split(",").length);
        assertTrue(lines.get(2).endsWith(",100.000"), lines.get(2));
        assertTrue(lines.get(2).startsWith("0.200,"), lines.get(2));
    }

    @Test
    void plot_rendersPngFromLedbatAndTcpCsvs(@TempDir Path dir) throws Exception {
        NetAddress peer = NetAddress.of("127.0.0.1", 7400);
        try (StatsCsv csv = new StatsCsv(dir.resolve("stream-0.csv"), 0)) {
            for (int i = 1; i <= 300; i++) {
                csv.row(stats(peer, i * 100_000L, i * 250_000L));
            }
        }
        Files.writeString(dir.resolve("tcp.csv"), "time_s,throughput_mbps\n14.0,5\n15.0,18\n24.0,19\n");
        Path png = dir.resolve("plot.png");
        assertEquals(0, Main.run("ledbat", "plot", "--log", dir.toString(), "--tcp", dir.resolve("tcp.csv").toString(),
                "--out", png.toString()));
        BufferedImage img = ImageIO.read(png.toFile());
        assertTrue(img.getWidth() > 500 && img.getHeight() > 500);
    }

    @Test
    void plot_seriesOfSeveralRuns_rendersThemSideBySide(@TempDir Path dir) throws Exception {
        StringBuilder a = new StringBuilder("time_s,bg_mbps,tcp_mbps,qdelay_ms\n");
        for (int i = 1; i <= 300; i++) {
            a.append(i / 10.0).append(',').append(i < 140 ? "18.5" : "0.2").append(',').append(i < 140 ? "" : "17")
                    .append(',').append(i % 3 == 0 ? "" : "75").append('\n');
        }
        Files.writeString(dir.resolve("a.csv"), a);
        Files.writeString(dir.resolve("b.csv"), a.toString().replace("18.5", "12"));
        Path png = dir.resolve("cmp.png");
        assertEquals(0, Main.run("ledbat", "plot", "--series", "geoblocks=" + dir.resolve("a.csv"), "--series",
                "libutp=" + dir.resolve("b.csv"), "--out", png.toString()));
        BufferedImage img = ImageIO.read(png.toFile());
        assertTrue(img.getWidth() > 500 && img.getHeight() > 500);
        assertEquals(1, Main.run("ledbat", "plot", "--out", png.toString()));   // neither --log nor --series
    }

    @Test
    void client_badArguments_failWithoutStartingAnything() {
        assertEquals(2, Main.run("ledbat", "client"));                                              // --remote missing
        assertEquals(1, Main.run("ledbat", "client", "--remote", "nohostport"));
        assertEquals(1, Main.run("ledbat", "client", "--remote", "127.0.0.1:9", "--time", "-1"));
        assertEquals(1, Main.run("ledbat", "client", "--remote", "127.0.0.1:9", "--time", "1", "--bytes", "1M"));
        assertEquals(1, Main.run("ledbat", "client", "--remote", "127.0.0.1:9", "--bytes", "12X"));
        assertEquals(1, Main.run("ledbat", "client", "--remote", "127.0.0.1:9", "--parallel", "0"));
        assertEquals(1, Main.run("ledbat", "server", "--port", "70000"));
        assertEquals(1, Main.run("ledbat", "server", "--workers", "0"));
        assertEquals(1, Main.run("ledbat", "client", "--remote", "127.0.0.1:9", "--workers", "65"));
    }

    private static StreamStats stats(NetAddress peer, long t, long acked) {
        return new StreamStats(peer, 1, t, acked / 1400, 0, acked, acked, 0, 0, 0, 28_000, 14_000, 5_000, 25_000,
                24_000, 1_000, 1_000_000, 0);
    }
}

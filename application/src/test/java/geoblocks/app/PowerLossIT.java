package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import geoblocks.net.DurableFile;
import geoblocks.net.SecretFile;
import geoblocks.network.session.NodeIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Power cuts (issue 44), on LazyFS: a FUSE file system that keeps written data in its own cache until it is
 * synced, and drops every unsynced byte at {@code lazyfs::clear-cache}, as a power cut does (a SIGKILL never
 * loses the page cache). {@link #powerCuts_underLoad_loseNoAcknowledgedObject} runs the short version of
 * scripts/power-loss.sh: two nodes, each on its own mount, two cycles of put load, a power cut of one or both
 * nodes at a seeded random point, a restart, and every acknowledged object read back byte for byte.
 * {@link #secretFiles_surviveAPowerCut} cuts the power under the files a node makes at its first start
 * (node key, admin token): on 7d39550 they were renamed into place unsynced, a cut left them empty, and the
 * node refused to start ("node key file ... is damaged"). Needs root and /dev/fuse, and LazyFS (built from
 * ../shared/lazyfs by scripts/install-lazyfs.sh, which installs Debian's packages it needs); skipped with the
 * reason otherwise.
 */
class PowerLossIT {
    private static final Pattern RESULT = Pattern.compile(
            "RESULT cycles=(\\d+) acked=(\\d+) verified=(\\d+) lost=(\\d+) corrupt=(\\d+)");
    static Path script;
    static Path lazyfs;

    @BeforeAll
    static void canRun() throws Exception {
        RealLinks.nodeJar(); // skipped without one
        script = RealLinks.script("power-loss.sh");
        assumeTrue("0".equals(RealLinks.run("id", "-u").trim()), "needs root to mount LazyFS");
        assumeTrue(Files.exists(Path.of("/dev/fuse")), "no /dev/fuse: LazyFS needs FUSE");
        String out = RealLinks.run(script.resolveSibling("install-lazyfs.sh").toString());
        List<String> lines = out.strip().lines().toList();
        Path bin = lines.isEmpty() ? null : Path.of(lines.get(lines.size() - 1).trim());
        assumeTrue(bin != null && Files.isExecutable(bin), "LazyFS could not be installed: " + out);
        lazyfs = bin;
    }

    @Test
    void powerCuts_underLoad_loseNoAcknowledgedObject() throws Exception {
        Path out = Files.createTempDirectory("power-loss-");
        String result = RealLinks.runScript(script, Map.of("WORK", out.resolve("run").toString(), "LAZYFS", lazyfs.toString(),
                "NODES", "2", "CYCLES", "2", "SEED", "7", "LOAD_MIN_MS", "1500", "LOAD_MAX_MS", "3500", "SAMPLE", "4",
                "MAX_SIZE", "262144", "HUNT", "5"), out, 300);
        Matcher m = RESULT.matcher(result);
        assertTrue(m.matches(), "not a RESULT line: " + result);
        long acked = Long.parseLong(m.group(2));
        assertEquals(2, Integer.parseInt(m.group(1)), result);
        assertTrue(acked > 0, "nothing was acknowledged: " + result);
        assertEquals(acked, Long.parseLong(m.group(3)), "every acknowledged object verified: " + result);
        assertEquals(0, Long.parseLong(m.group(4)), "lost: " + result);
        assertEquals(0, Long.parseLong(m.group(5)), "corrupt: " + result);
    }

    @Test
    void secretFiles_surviveAPowerCut() throws Exception {
        try (Mount mount = Mount.of(lazyfs, Files.createTempDirectory("power-secret-"))) {
            Path key = mount.dir().resolve("node.key");
            Path token = mount.dir().resolve("admin-token");
            KeyPair made = NodeIdentity.loadOrCreate(key);
            String secret = SecretFile.loadOrCreate(token, "gbr_", new SecureRandom());
            mount.cutPower();
            assertEquals(NodeIdentity.format(made.getPublic()), NodeIdentity.format(NodeIdentity.loadOrCreate(key).getPublic()),
                    "the node key after a power cut");
            assertEquals(secret, SecretFile.loadOrCreate(token, "gbr_", new SecureRandom()), "the admin token after a power cut");
        }
    }

    /**
     * What the S3 gateway's multipart uploads keep on disk: a part's spool file is synced before the part is
     * acknowledged ({@code DurableFile.sync}) and the upload's journal replaced durably
     * ({@code DurableFile.replace}); both read back after a power cut, while a file written the way both were
     * before (no fsync) comes back empty: the cut is real.
     */
    @Test
    void multipartPartsAndJournals_surviveAPowerCut_unsyncedFilesDoNot() throws Exception {
        try (Mount mount = Mount.of(lazyfs, Files.createTempDirectory("power-mpu-"))) {
            byte[] part = new byte[300_000];
            new Random(3).nextBytes(part);
            Path partFile = mount.dir().resolve("part-1");
            Files.write(partFile, part);
            DurableFile.sync(partFile);
            Path journal = mount.dir().resolve("mpu-1.journal");
            DurableFile.replace(journal, "journal v1\n".getBytes(StandardCharsets.UTF_8));
            DurableFile.replace(journal, "journal v2\n".getBytes(StandardCharsets.UTF_8));
            Path unsynced = mount.dir().resolve("part-2");
            Files.write(unsynced, part);
            mount.cutPower();
            Assertions.assertArrayEquals(part, Files.readAllBytes(partFile), "the synced part");
            assertEquals("journal v2\n", Files.readString(journal), "the journal, replaced durably");
            assertEquals(0, Files.size(unsynced), "a part written without fsync is gone: LazyFS dropped its data");
        }
    }

    /** One LazyFS mount at {@code work/mnt} over {@code work/backing}, with its config and fifo in a directory whose path has no "-o". */
    record Mount(Process process, Path dir, Path conf, Path fifo, Path log) implements AutoCloseable {
        static Mount of(Path lazyfs, Path work) throws IOException, InterruptedException {
            Path backing = Files.createDirectories(work.resolve("backing"));
            Path dir = Files.createDirectories(work.resolve("mnt"));
            // LazyFS ignores a --config-path whose text contains "-o" (any case)
            Path conf = Files.createTempDirectory(Path.of("/tmp"), "gbpl");
            assumeTrue(!conf.toString().toLowerCase(Locale.ROOT).contains("-o"), "a config path without -o: " + conf);
            Path fifo = conf.resolve("faults.fifo");
            Files.writeString(conf.resolve("lazyfs.toml"), "[faults]\nfifo_path=\"" + fifo + "\"\n[cache]\napply_eviction=false\n"
                    + "[cache.simple]\ncustom_size=\"16mb\"\nblocks_per_page=1\n[filesystem]\nlog_all_operations=false\nlogfile=\"\"\n");
            Path log = work.resolve("lazyfs.log");
            Process p = new ProcessBuilder(lazyfs.toString(), dir.toString(), "--config-path", conf.resolve("lazyfs.toml").toString(),
                    "-o", "allow_other", "-o", "modules=subdir", "-o", "subdir=" + backing, "-f")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Mount m = new Mount(p, dir, conf, fifo, log);
            for (int i = 0; i < 100; i++) {
                if (RealLinks.run("sh", "-c", "mountpoint -q '" + dir + "' && echo mounted").contains("mounted") && Files.exists(fifo)) {
                    return m;
                }
                if (!p.isAlive()) {
                    break;
                }
                Thread.sleep(100);
            }
            m.close();
            throw new AssertionError("LazyFS did not mount at " + dir + ": " + Files.readString(log));
        }

        /** {@code lazyfs::clear-cache}, and waits until LazyFS logs the cache cleared. */
        void cutPower() throws IOException, InterruptedException {
            Files.writeString(fifo, "lazyfs::clear-cache\n", StandardCharsets.US_ASCII);
            for (int i = 0; i < 100; i++) {
                if (Files.readString(log).contains("cache is cleared")) {
                    return;
                }
                Thread.sleep(50);
            }
            throw new AssertionError("LazyFS did not clear its cache: " + Files.readString(log));
        }

        @Override
        public void close() throws IOException, InterruptedException {
            RealLinks.run("fusermount3", "-u", dir.toString());
            // LazyFS ends with SIGABRT after an unmount (an upstream thread is never joined); the unmount is clean
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            RealLinks.run("rm", "-rf", conf.toString());
        }
    }
}

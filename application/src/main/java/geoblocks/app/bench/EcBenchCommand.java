package geoblocks.app.bench;

import geoblocks.blockstore.core.ec.ErasureCode;
import geoblocks.blockstore.core.ec.StripeLayout;
import geoblocks.node.Sizes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench ec}: Reed-Solomon encode and decode speed of the erasure-coding core on one core, in GB/s
 * of block data, beside a memory-bandwidth reference measured in the same run, with the JVM and the
 * load average (docs/erasure-coding.md). Needs no cluster.
 */
@Command(name = "ec", mixinStandardHelpOptions = true,
        description = "Erasure-coding speed on one core: encode and decode GB/s per code and block size, decode with"
                + " 0, 1 and m data fragments lost, beside an array-copy memory-bandwidth reference.")
public final class EcBenchCommand implements Callable<Integer> {
    @Option(names = "--codes", defaultValue = "3+1,4+2,6+3", split = ",", paramLabel = "K+M",
            description = "Codes, data+parity (default: ${DEFAULT-VALUE}).")
    List<String> codes;

    @Option(names = "--block-sizes", defaultValue = "1MiB,64MiB", split = ",", paramLabel = "SIZE",
            description = "Block sizes (default: ${DEFAULT-VALUE}).")
    List<String> blockSizes;

    @Option(names = "--cell", defaultValue = "" + StripeLayout.DEFAULT_CELL, paramLabel = "SIZE",
            description = "Bytes per fragment per stripe (default: ${DEFAULT-VALUE}).")
    String cell;

    @Option(names = "--seconds", defaultValue = "2", paramLabel = "S",
            description = "Warm-up, then measuring time, of each figure (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the data (default: ${DEFAULT-VALUE}).")
    long seed;

    /** "3+1" as a code; refuses anything else, naming it. */
    static ErasureCode code(String s) {
        String[] km = s.trim().split("\\+");
        try {
            if (km.length == 2) {
                return new ErasureCode(Integer.parseInt(km[0].trim()), Integer.parseInt(km[1].trim()));
            }
        } catch (NumberFormatException e) {
            // falls through to the refusal
        }
        throw new IllegalArgumentException("--codes: '" + s + "' is not data+parity, e.g. 3+1");
    }

    @Override
    public Integer call() throws IOException {
        List<ErasureCode> cs = codes.stream().map(EcBenchCommand::code).toList();
        List<Long> sizes = new ArrayList<>();
        for (String s : blockSizes) {
            sizes.add(Sizes.parse(s.trim()));
        }
        long cellBytes = Sizes.parse(cell.trim());
        if (cellBytes < 1 || cellBytes > (64 << 20)) {
            throw new IllegalArgumentException("--cell must be in 1 B..64 MiB, was " + cell);
        }
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("--seconds must be > 0, was " + seconds);
        }
        EcBench bench = new EcBench((int) cellBytes, seconds, seed);
        System.out.printf("bench ec, %s: %s %s (%s), %d cores, load average %s; cells of %s; one thread%n",
                Instant.now(), System.getProperty("java.vm.name"), Runtime.version(), System.getProperty("java.vendor"),
                Runtime.getRuntime().availableProcessors(), loadAverage(), Sizes.human(cellBytes));
        System.out.printf(Locale.ROOT, "memory reference: System.arraycopy of 256 MiB, %.2f GB/s copied"
                + " (each byte read once and written once)%n", bench.copyGbPerSecond(256 << 20));
        System.out.printf("%-6s %-10s %-18s %10s %6s%n", "code", "block", "what", "GB/s/core", "runs");
        for (ErasureCode c : cs) {
            for (long size : sizes) {
                bench.run(c, size, r -> System.out.printf(Locale.ROOT, "%-6s %-10s %-18s %10.2f %6d%n", r.code(),
                        Sizes.human(r.blockBytes()), r.what(), r.gbPerSecond(), r.runs()));
            }
        }
        System.out.printf("load average at the end: %s%n", loadAverage());
        return 0;
    }

    /** The 1, 5 and 15 minute load averages (Linux), else the JVM's 1-minute figure. */
    static String loadAverage() {
        Path p = Path.of("/proc/loadavg");
        try {
            if (Files.isReadable(p)) {
                String[] f = Files.readString(p).trim().split("\\s+");
                return f[0] + " " + f[1] + " " + f[2];
            }
        } catch (IOException e) {
            // the JVM's figure below
        }
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}

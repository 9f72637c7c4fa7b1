package geoblocks.app.load;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Policy;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Replicas per node, two ways: what the acknowledged files' manifests promise (block replicas
 * per region) and, for a local cluster, the block files really on each node's disk. Prints both
 * with their spread, and counts promised replicas missing from disk and blocks with fewer
 * distinct replicas than their policy's copies.
 */
final class Replicas {
    private Replicas() {}

    /** What the manifests promise: per region the block ids (and their bytes) it must hold. */
    record Expected(Map<String, Map<String, Integer>> blocksByRegion, long blocks, long underReplicated) {
        static Expected of(List<Manifest> manifests) {
            Map<String, Map<String, Integer>> by = new HashMap<>();
            long blocks = 0;
            long under = 0;
            for (Manifest m : manifests) {
                int copies = Policy.parse(m.policy()).copies();
                for (int i = 0; i < m.blocks().size(); i++) {
                    Manifest.BlockRef b = m.blocks().get(i);
                    blocks++;
                    if (new HashSet<>(b.replicas()).size() < copies) {
                        under++;
                    }
                    for (String r : b.replicas()) {
                        by.computeIfAbsent(r, k -> new HashMap<>()).put(m.blockId(i).value(), b.length());
                    }
                }
            }
            return new Expected(by, blocks, under);
        }
    }

    /** The block ids stored under {@code dataDir/blocks} with their file sizes (read-only walk: safe on a live node). */
    static Map<String, Long> onDisk(Path dataDir) {
        Map<String, Long> ids = new HashMap<>();
        Path blocks = dataDir.resolve("blocks");
        if (!Files.isDirectory(blocks)) {
            return ids;
        }
        try (Stream<Path> s = Files.walk(blocks, 2)) {
            s.filter(p -> p.getFileName().toString().endsWith(".blk")).forEach(p -> {
                String n = p.getFileName().toString();
                try {
                    ids.put(n.substring(0, n.length() - 4), Files.size(p));
                } catch (NoSuchFileException gone) {
                    // deleted while we looked
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + blocks + ": " + e.getMessage(), e);
        }
        return ids;
    }

    /**
     * Prints the table; {@code disks} (region to its data directory) may be empty when the
     * cluster is not local. Returns the promised replicas missing from disk.
     */
    static long print(PrintStream out, List<String> regions, Expected exp, Map<String, Path> disks) {
        boolean local = !disks.isEmpty();
        out.printf("%-10s %14s %10s%s%n", "NODE", "REPLICAS", "MB", local ? String.format("   %14s %10s %10s", "ON DISK", "MB", "MISSING") : "");
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<String, Long> diskCounts = new LinkedHashMap<>();
        long missing = 0;
        for (String r : regions) {
            Map<String, Integer> want = exp.blocksByRegion().getOrDefault(r, Map.of());
            long bytes = want.values().stream().mapToLong(Integer::longValue).sum();
            counts.put(r, (long) want.size());
            String diskCols = "";
            if (local) {
                Map<String, Long> have = onDisk(disks.get(r));
                Set<String> absent = new HashSet<>(want.keySet());
                absent.removeAll(have.keySet());
                missing += absent.size();
                diskCounts.put(r, (long) have.size());
                diskCols = String.format("   %14d %10.1f %10d", have.size(),
                        have.values().stream().mapToLong(Long::longValue).sum() / 1e6, absent.size());
            }
            out.printf("%-10s %14d %10.1f%s%n", r, want.size(), bytes / 1e6, diskCols);
        }
        out.printf("spread of replicas (acknowledged files): %s%n", spread(counts));
        if (local) {
            out.printf("spread of block files on disk (all writes, also failed ones): %s%n", spread(diskCounts));
        }
        out.printf("blocks: %d acknowledged, %d with fewer distinct replicas than their policy promises%s%n",
                exp.blocks(), exp.underReplicated(), local ? ", " + missing + " promised replicas missing on disk" : "");
        return missing;
    }

    /** "min 100, max 120, (max-min)/mean 18.2 %, stddev/mean 7.1 %". */
    static String spread(Map<String, Long> counts) {
        if (counts.isEmpty()) {
            return "n/a";
        }
        long min = counts.values().stream().mapToLong(Long::longValue).min().getAsLong();
        long max = counts.values().stream().mapToLong(Long::longValue).max().getAsLong();
        double mean = counts.values().stream().mapToLong(Long::longValue).average().getAsDouble();
        double var = counts.values().stream().mapToDouble(c -> (c - mean) * (c - mean)).sum() / counts.size();
        if (mean == 0) {
            return "min 0, max 0";
        }
        return String.format("min %d, max %d, (max-min)/mean %.1f %%, stddev/mean %.1f %%", min, max,
                100 * (max - min) / mean, 100 * Math.sqrt(var) / mean);
    }
}

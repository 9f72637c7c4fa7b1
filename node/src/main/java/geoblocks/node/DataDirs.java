package geoblocks.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import geoblocks.blockstore.core.DataDir;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The data directories of a node, from {@code server --data} (repeated; each
 * {@code DIR[,capacity=SIZE][,reserve=SIZE]}) or else from {@code geoblocks.node.data-dirs} (a list of
 * {@code {path, capacity, reserve}}, a REGION subdirectory added to each path) or else the single
 * {@code geoblocks.node.data-dir}/REGION. Capacity 0 (the default) is the whole file system; the
 * reserve defaults to {@code geoblocks.node.min-free-disk}. The first directory also holds the
 * metadata engine ({@code meta/}).
 */
public final class DataDirs {
    private DataDirs() {}

    public static List<DataDir> resolve(Config config, String region, List<String> cli) {
        long reserve = config.getBytes("geoblocks.node.min-free-disk");
        List<DataDir> dirs = new ArrayList<>();
        if (cli != null && !cli.isEmpty()) {
            for (String spec : cli) {
                dirs.add(parse(spec, reserve));
            }
        } else if (config.hasPath("geoblocks.node.data-dirs") && !config.getConfigList("geoblocks.node.data-dirs").isEmpty()) {
            for (Config d : config.getConfigList("geoblocks.node.data-dirs")) {
                dirs.add(new DataDir(Path.of(d.getString("path"), region),
                        d.hasPath("capacity") ? d.getBytes("capacity") : 0,
                        d.hasPath("reserve") ? d.getBytes("reserve") : reserve));
            }
        } else {
            dirs.add(new DataDir(Path.of(config.getString("geoblocks.node.data-dir"), region), 0, reserve));
        }
        List<Path> seen = new ArrayList<>();
        for (DataDir d : dirs) {
            Path p = d.path().toAbsolutePath().normalize();
            if (seen.contains(p)) {
                throw new IllegalArgumentException("data directory " + d.path() + " is given twice");
            }
            seen.add(p);
        }
        return dirs;
    }

    /** {@code DIR[,capacity=SIZE][,reserve=SIZE]}, sizes as in the config ({@code 100 GiB}, {@code 512MiB}). */
    static DataDir parse(String spec, long defaultReserve) {
        String[] parts = spec.split(",");
        if (parts[0].isBlank()) {
            throw new IllegalArgumentException("--data needs a directory, was '" + spec + "'");
        }
        long capacity = 0;
        long reserve = defaultReserve;
        for (int i = 1; i < parts.length; i++) {
            String[] kv = parts[i].split("=", 2);
            if (kv.length != 2 || !(kv[0].equals("capacity") || kv[0].equals("reserve"))) {
                throw new IllegalArgumentException("--data " + spec + ": expected DIR[,capacity=SIZE][,reserve=SIZE], not '"
                        + parts[i] + "'");
            }
            long bytes = bytes(spec, kv[1]);
            if (kv[0].equals("capacity")) {
                capacity = bytes;
            } else {
                reserve = bytes;
            }
        }
        return new DataDir(Path.of(parts[0]), capacity, reserve);
    }

    private static long bytes(String spec, String size) {
        try {
            return ConfigFactory.empty().withValue("s", ConfigValueFactory.fromAnyRef(size.trim())).getBytes("s");
        } catch (ConfigException e) {
            throw new IllegalArgumentException("--data " + spec + ": '" + size + "' is not a size (e.g. 100 GiB)");
        }
    }
}

package geoblocks.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.ClusterConfig;
import geoblocks.network.NetworkSettings;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The configuration a command runs with: a HOCON file given with --config over the built-in
 * local 4-region cluster (application's reference.conf) and every module's defaults.
 */
public record AppConfig(Config config, ClusterConfig cluster, NodeSettings node, NetworkSettings network) {
    /** The secret shipped for the local demo cluster; refused for a cluster off this machine. */
    public static final String DEMO_SECRET = "geoblocks-local-demo-secret";

    /** The cluster secret every node and client proves it knows (see MessageAuth). */
    public String secret() {
        String s = config.getString("geoblocks.cluster.secret");
        boolean local = cluster.regions().values().stream().allMatch(a -> a.getIp().isLoopbackAddress());
        if (s.equals(DEMO_SECRET) && !local) {
            throw new IllegalArgumentException("geoblocks.cluster.secret is the built-in demo secret, which anyone"
                    + " can read; set your own (16+ characters) for a cluster that is not all on loopback");
        }
        if (s.length() < 16) {
            throw new IllegalArgumentException("geoblocks.cluster.secret must be at least 16 characters");
        }
        return s;
    }


    public static AppConfig load(Path file) {
        Config base = ConfigFactory.load();
        Config c = base;
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("config file " + file + " does not exist");
            }
            try {
                c = ConfigFactory.parseFile(file.toFile()).withFallback(base).resolve();
            } catch (ConfigException e) {
                throw new IllegalArgumentException("config file " + file + ": " + e.getMessage());
            }
        }
        try {
            NetworkSettings net = NetworkSettings.from(c);
            boolean ours = net.implementation().equals("geoblocks");
            NodeSettings node = NodeSettings.from(c, ours ? 1 << 20 : NodeSettings.SMALL_FRAME_CHUNK);
            if (ours && node.chunkBytes() + 4096L > net.maxFrameBytes()) {
                throw new IllegalArgumentException("geoblocks.node.chunk-bytes (" + node.chunkBytes()
                        + ") needs geoblocks.network.max-frame of at least chunk-bytes + 4 KiB, was " + net.maxFrameBytes());
            }
            if (!ours && node.chunkBytes() > NodeSettings.SMALL_FRAME_CHUNK) {
                throw new IllegalArgumentException("geoblocks.node.chunk-bytes (" + node.chunkBytes() + ") must be at most "
                        + NodeSettings.SMALL_FRAME_CHUNK + " with geoblocks.network.implementation = kompics-netty"
                        + " (its frames stop at 65,536 bytes)");
            }
            return new AppConfig(c, ClusterConfig.from(c), node, net);
        } catch (ConfigException e) {
            throw new IllegalArgumentException("bad configuration: " + e.getMessage());
        }
    }
}

package geoblocks.blockstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.read.ReadOptions;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClientPortTest {
    @Test
    void withOp_changesOnlyTheOperationId_forEveryRequestType() {
        List<ClientPort.Request> all = List.of(
                new ClientPort.Put(1, Path.of("in"), null, "n", "local", 4096, "local", true,
                        Map.of("etag", "abc"), Compression.ZSTD),
                new ClientPort.Get(2, "n", Path.of("out"), null, "v1",
                        new ReadOptions(ReadOptions.Strategy.HEDGED, true),
                        new ClientPort.Range(5, 9)),
                new ClientPort.Versions(3, "n"),
                new ClientPort.ListFiles(4),
                new ClientPort.ListPage(4, "photos/", "photos/a", 50),
                new ClientPort.Stat(5, "n", "v2"),
                new ClientPort.Delete(6, "n"),
                new ClientPort.Purge(6, "n", "0000018c00000001@seoul"),
                new ClientPort.Move(7, "n", List.of("seoul", "dublin")),
                new ClientPort.Status(8),
                new ClientPort.Policies(9),
                new ClientPort.Cluster(9, "add", "mumbai", "10.0.3.1:47000", "ap-south", 4L << 40, true),
                new ClientPort.NetBench(10, "dublin", "udp", 2, 1_000_000, 50_000_000, 3000, 1200));
        Set<Class<?>> covered = new HashSet<>();
        for (ClientPort.Request r : all) {
            ClientPort.Request again = r.withOp(42);
            assertEquals(42, again.op(), r.toString());
            assertEquals(r.getClass(), again.getClass());
            assertEquals(r, again.withOp(r.op()), "every other field is kept: " + r);
            covered.add(r.getClass());
        }
        assertEquals(Set.of(ClientPort.Request.class.getPermittedSubclasses()), covered, "a request type not covered here");
    }
}

package geoblocks.blockstore.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.Bytes;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import se.sics.kompics.KompicsEvent;

/**
 * What travels between the node's components is data: no event of a port carries a function (a lambda run
 * by the component that receives it, on that component's thread, with the sender's state). The one
 * exception is named: a block read's buffer source ({@code Bytes.Allocator}), a thread-safe pool (or the
 * heap) that the network releases into, not code of the sender.
 */
class PortEventsTest {
    @Test
    void noPortEvent_carriesAFunction() throws Exception {
        List<Class<?>> events = portEvents();
        assertTrue(events.size() > 20, "found the port events: " + events);
        List<String> functions = new ArrayList<>();
        for (Class<?> e : events) {
            for (RecordComponent c : e.getRecordComponents()) {
                if (isFunction(c.getType()) && c.getType() != Bytes.Allocator.class) {
                    functions.add(e.getName() + "." + c.getName() + ": " + c.getType().getName());
                }
            }
        }
        assertEquals(List.of(), functions);
    }

    @Test
    void syncMeta_isARequestId() {
        assertEquals(1, BlockStorePort.SyncMeta.class.getRecordComponents().length);
        assertEquals(long.class, BlockStorePort.SyncMeta.class.getRecordComponents()[0].getType());
    }

    private static boolean isFunction(Class<?> t) {
        return t.isAnnotationPresent(FunctionalInterface.class) || t == Runnable.class
                || t.getName().startsWith("java.util.function.")
                || (t.isInterface() && t.getMethods().length == 1 && !t.isAnnotation());
    }

    /** Every record of this package (and its nested records) that is a Kompics event. */
    private static List<Class<?>> portEvents() throws IOException, URISyntaxException, ClassNotFoundException {
        Path dir = Path.of(BlockStorePort.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("geoblocks/blockstore/port");
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                if (n.endsWith(".class")) {
                    Class<?> c = Class.forName("geoblocks.blockstore.port." + n.substring(0, n.length() - 6));
                    if (c.isRecord() && KompicsEvent.class.isAssignableFrom(c)) {
                        out.add(c);
                    }
                }
            }
        }
        return out;
    }
}

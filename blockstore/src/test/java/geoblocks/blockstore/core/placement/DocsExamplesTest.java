package geoblocks.blockstore.core.placement;

import static geoblocks.blockstore.core.placement.Fixtures.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What docs/placement.md and docs/cluster-example.conf show is what the code does. */
class DocsExamplesTest {
    private static final Path DOCS = Path.of("..", "docs");

    private static String block(String doc, String fence) {
        int start = doc.indexOf("```" + fence + "\n");
        assertTrue(start >= 0, "no ```" + fence + " block");
        start += fence.length() + 4;
        return doc.substring(start, doc.indexOf("```", start));
    }

    @Test
    void placementDoc_hoconExample_parses_andItsRefusalIsWhatTheCodeSays() throws IOException {
        String doc = Files.readString(DOCS.resolve("placement.md"));
        PolicySet set = PolicySet.build(PlacementSettings.from(ConfigFactory.parseString(block(doc, "hocon")),
                Fixtures.REGIONS), PolicySet.class.getClassLoader());
        assertEquals(List.of("seoul", "dublin"),
                set.decide(PlacementRequest.upload("eu-near", MIB), Fixtures.input("seoul")).regions());
        assertEquals(List.of("dublin", "mumbai"),
                set.decide(PlacementRequest.upload("eu-near", MIB), Fixtures.input("dublin")).regions());
        String refusal = set.decide(PlacementRequest.upload("eu-near", MIB),
                Fixtures.input("seoul", Map.of(), 1, "dublin")).refusal();
        assertTrue(doc.contains("\n" + refusal + "\n"), "docs/placement.md should quote: " + refusal);
    }

    @Test
    void placementDoc_javaExample_isTheTestSource() throws IOException {
        String doc = Files.readString(DOCS.resolve("placement.md"));
        String source = Files.readString(Path.of("src/test/java/geoblocks/example/QuietestPeer.java"));
        assertEquals(source, block(doc, "java"));
    }

    @Test
    void clusterExampleConf_placementBlockIsValid() {
        PlacementSettings s = PlacementSettings.from(ConfigFactory.parseFile(DOCS.resolve("cluster-example.conf").toFile()),
                Fixtures.REGIONS);
        assertEquals(List.of("eu-near"), s.policies().stream().map(DeclarativeSpec::name).toList());
    }
}

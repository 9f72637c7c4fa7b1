package geoblocks.blockstore.core.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** geoblocks.placement is read once and every bad or conflicting rule is refused, naming its key. */
class PlacementSettingsTest {
    static final String ZONES = "geoblocks.placement.zones { eu = [dublin], asia = [seoul, mumbai], americas = [saopaulo] }\n";

    static PlacementSettings parse(String hocon) {
        return PlacementSettings.from(ConfigFactory.parseString(hocon), Fixtures.REGIONS);
    }

    static void assertRefused(String hocon, String... expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(hocon));
        for (String x : expected) {
            assertTrue(e.getMessage().contains(x), "expected '" + x + "' in: " + e.getMessage());
        }
    }

    @Test
    void none_givesDefaults() {
        assertEquals(PlacementSettings.defaults(), parse(""));
        assertEquals(PlacementSettings.defaults().balancedMaxSpread(), parse("geoblocks.placement {}").balancedMaxSpread());
    }

    @Test
    void fullExample_isRead() {
        PlacementSettings s = parse(ZONES + """
                geoblocks.placement {
                  egress-cost { seoul = 0.08, dublin = 0.02, saopaulo = 0.15, mumbai = 0.09 }
                  balanced { copies = 3, max-disk-spread = 0.05 }
                  classes = ["geoblocks.example.PinnedToDublin"]
                  policies {
                    eu-near { copies = 2, terms = [local, closest], require = [eu], max-per-zone = 1 }
                    cool { copies = 1, terms = [cheapest], forbid = [americas], max-disk-use = 0.8, max-io-rate = 100 MiB }
                  }
                }
                """);
        assertEquals(List.of("cool", "eu-near"), s.policies().stream().map(DeclarativeSpec::name).toList());
        DeclarativeSpec cool = s.policies().get(0);
        assertEquals(List.of(Term.CHEAPEST), cool.terms());
        assertEquals(List.of("americas"), cool.forbid());
        assertEquals(0.8, cool.maxDiskUse());
        assertEquals(100L << 20, cool.maxIoBytesPerSecond());
        assertEquals(1, s.policies().get(1).maxPerZone());
        assertEquals(3, s.balancedCopies());
        assertEquals(0.05, s.balancedMaxSpread());
        assertEquals(0.02, s.egressCost().get("dublin"));
        assertEquals(List.of("geoblocks.example.PinnedToDublin"), s.classes());
        assertEquals(Set.of("seoul", "mumbai"), s.zones().regionsOf("asia"));
        assertEquals("asia", s.zones().zoneOf("mumbai"));
        assertEquals("dublin", s.zones().regionsOf("dublin").iterator().next());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "unknown key in a policy | p { copies = 1, terms = [local], copys = 2 } | geoblocks.placement.policies.p.copys: unknown key",
        "unknown term | p { copies = 2, terms = [local, nearest] } | geoblocks.placement.policies.p.terms[1]: unknown term 'nearest'",
        "terms and copies disagree | p { copies = 2, terms = [local] } | geoblocks.placement.policies.p.terms has 1 entries; it needs one per copy",
        "more copies than regions | p { copies = 5, terms = [random, random, random, random, random] } | geoblocks.placement.policies.p.copies must be in 1..4",
        "local twice | p { copies = 2, terms = [local, local] } | geoblocks.placement.policies.p.terms names local more than once",
        "missing terms | p { copies = 1 } | geoblocks.placement.policies.p.terms is missing",
        "unknown region | p { copies = 1, terms = [local], require = [atlantis] } | geoblocks.placement.policies.p.require: 'atlantis' is neither a region",
        "unknown forbid | p { copies = 1, terms = [local], forbid = [mars] } | geoblocks.placement.policies.p.forbid: 'mars'",
        "require what is forbidden | p { copies = 2, terms = [local, closest], require = [eu], forbid = [dublin] } | geoblocks.placement.policies.p: require eu (dublin) conflicts with forbid dublin",
        "more requirements than copies | p { copies = 1, terms = [closest], require = [eu, americas] } | geoblocks.placement.policies.p: no 1 regions out of [dublin, mumbai, saopaulo, seoul] satisfy require [eu (dublin), americas (saopaulo)]",
        "requirements over the zone limit | p { copies = 2, terms = [local, closest], require = [seoul, mumbai], max-per-zone = 1 } | with at most 1 per zone (the rules conflict)",
        "forbid leaves too few | p { copies = 3, terms = [random, random, random], forbid = [asia] } | copies = 3 but forbid asia (mumbai, seoul) leaves only [dublin, saopaulo]",
        "zone limit too tight | p { copies = 4, terms = [random, random, random, random], max-per-zone = 1 } | no 4 regions out of",
        "built-in name | local { copies = 1, terms = [local] } | geoblocks.placement.policies.local: 'local' is a built-in policy",
        "balanced name | balanced { copies = 1, terms = [local] } | 'balanced' is a built-in policy",
        "bad name | Big { copies = 1, terms = [local] } | geoblocks.placement.policies.Big: a policy name must match",
        "cheapest without costs | p { copies = 1, terms = [cheapest] } | geoblocks.placement.policies.p.terms uses cheapest, but geoblocks.placement.egress-cost has no cost for [dublin, mumbai, saopaulo, seoul]",
        "disk use above one | p { copies = 1, terms = [local], max-disk-use = 1.5 } | geoblocks.placement.policies.p.max-disk-use must be a fraction in (0, 1]",
        "negative io rate | p { copies = 1, terms = [local], max-io-rate = -1 } | geoblocks.placement.policies.p.max-io-rate",
        "negative zone limit | p { copies = 1, terms = [local], max-per-zone = -1 } | geoblocks.placement.policies.p.max-per-zone must be >= 0",
        "wrong type | p { copies = two, terms = [local] } | geoblocks.placement.policies.p: ",
        "not an object | p = 3 | geoblocks.placement.policies.p must be an object",
    })
    void badPolicy_isRefusedNamingTheKey(String what, String policy, String expected) {
        assertRefused(ZONES + "geoblocks.placement.policies { " + policy + " }", expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "unknown top-level key | geoblocks.placement.polices {} | geoblocks.placement.polices: unknown key",
        "zone with unknown region | geoblocks.placement.zones { eu = [dublin, paris] } | geoblocks.placement.zones.eu: unknown region 'paris'",
        "region in two zones | geoblocks.placement.zones { eu = [dublin], west = [dublin] } | geoblocks.placement.zones.west: region dublin is already in zone eu",
        "zone named like a region | geoblocks.placement.zones { seoul = [mumbai] } | geoblocks.placement.zones.seoul: a zone name must",
        "empty zone | geoblocks.placement.zones { eu = [] } | geoblocks.placement.zones.eu lists no region",
        "cost of unknown region | geoblocks.placement.egress-cost { paris = 1 } | geoblocks.placement.egress-cost.paris: unknown region",
        "negative cost | geoblocks.placement.egress-cost { seoul = -1 } | geoblocks.placement.egress-cost.seoul must be a number >= 0",
        "balanced copies | geoblocks.placement.balanced.copies = 5 | geoblocks.placement.balanced.copies must be in 1..4",
        "balanced spread | geoblocks.placement.balanced.max-disk-spread = 1.5 | geoblocks.placement.balanced.max-disk-spread must be a fraction",
        "balanced unknown key | geoblocks.placement.balanced.spread = 0.1 | geoblocks.placement.balanced.spread: unknown key",
    })
    void badSetting_isRefusedNamingTheKey(String what, String hocon, String expected) {
        assertRefused(hocon, expected);
    }
}

package geoblocks.blockstore.core.placement;

import static geoblocks.blockstore.core.placement.Fixtures.MIB;
import static geoblocks.blockstore.core.placement.Fixtures.disk;
import static geoblocks.blockstore.core.placement.Fixtures.input;
import static geoblocks.blockstore.core.placement.Fixtures.io;
import static geoblocks.blockstore.core.placement.Fixtures.loads;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.wire.FailureCode;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The registry: custom policies by ServiceLoader and by class name, names, and the check of every answer. */
class PolicySetTest {
    private static final ClassLoader LOADER = PolicySetTest.class.getClassLoader();

    static PolicySet build(String hocon) {
        return PolicySet.build(PlacementSettingsTest.parse(hocon), LOADER);
    }

    @Test
    void serviceLoader_findsTheExamplePolicyOnTheTestClassPath() {
        PolicySet set = PolicySet.defaults();
        PolicyDescription q = set.describe().stream().filter(p -> p.name().equals("quietest")).findFirst().orElseThrow();
        assertEquals(new PolicyDescription("quietest", "custom", 2, "this node, then the peer with the least recent block I/O"), q);
        // from seoul: mumbai (closest) is busy, dublin quiet
        PolicySet.Decision d = set.decide(PlacementRequest.upload("quietest", MIB),
                input("seoul", loads("mumbai", io(300L << 20), "dublin", io(1 << 20), "saopaulo", io(2 << 20)), 1));
        assertEquals(List.of("seoul", "dublin"), d.regions());
    }

    @Test
    void classesSetting_loadsAPolicyByName_andItsAnswerIsChecked() {
        PolicySet set = build("geoblocks.placement.classes = [geoblocks.example.PinnedToDublin, geoblocks.example.QuietestPeer]");
        assertEquals("random, tworandom, local, localclosest, localfarthest, localclosest3, balanced, quietest, pinned-dublin", set.names());
        assertEquals(List.of("dublin"), set.decide(PlacementRequest.upload("pinned-dublin", MIB), input("seoul")).regions());
        PolicySet.Decision down = set.decide(PlacementRequest.upload("pinned-dublin", MIB), input("seoul", Map.of(), 1, "dublin"));
        assertEquals("policy pinned-dublin chose dublin, but dublin is down", down.refusal());
        PolicySet.Decision full = set.decide(PlacementRequest.upload("pinned-dublin", MIB),
                input("seoul", loads("dublin", disk(64, 4)), 1));
        assertTrue(full.refusal().startsWith("policy pinned-dublin chose dublin, but dublin reports disk full: 4 MiB free"), full.refusal());
        assertEquals(FailureCode.INSUFFICIENT_STORAGE, full.code(), "room kept dublin out");
        assertEquals(FailureCode.UNAVAILABLE, down.code(), "dublin is down, not full");
    }

    @Test
    void classesSetting_badClass_refusedNamingTheKeyAndClass() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> build("geoblocks.placement.classes = [com.example.Nope]"));
        assertEquals("geoblocks.placement.classes[0]: class com.example.Nope is not on the class path", missing.getMessage());
        IllegalArgumentException notAPolicy = assertThrows(IllegalArgumentException.class,
                () -> build("geoblocks.placement.classes = [java.lang.String]"));
        assertTrue(notAPolicy.getMessage().startsWith("geoblocks.placement.classes[0]: java.lang.String does not implement"),
                notAPolicy.getMessage());
        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class, () -> build(
                "geoblocks.placement.policies { quietest { copies = 1, terms = [local] } }"));
        assertTrue(clash.getMessage().contains("policy name 'quietest' is taken by the declarative policy"), clash.getMessage());
    }

    @Test
    void canonical_anyCase_andUnknownListsEveryName() {
        PolicyCatalog c = build("").catalog();
        assertEquals("localclosest", c.canonical(" LocalClosest "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.canonical("best"));
        assertEquals("unknown policy 'best'; choose one of random, tworandom, local, localclosest, localfarthest, localclosest3, balanced,"
                + " quietest", e.getMessage());
        assertEquals("unknown policy 'best'; choose one of " + c.names(),
                build("").decide(PlacementRequest.upload("best", MIB), input("seoul")).refusal());
    }

    @Test
    void replacement_policyUnknownHere_usesTheNearestCandidate() {
        PlacementInput in = new PlacementInput(Fixtures.table("seoul"), Map.of(), MIB, List.of("seoul"), new Random(1));
        PolicySet.Decision d = build("").decide(PlacementRequest.replacement("from-elsewhere", MIB, List.of("seoul")), in);
        assertEquals(List.of("mumbai"), d.regions());
    }

    /** A policy that answers whatever it is told to, to test the checks. */
    record Answering(List<String> answer, RuntimeException boom) implements PlacementPolicy {
        @Override
        public String name() {
            return "answering";
        }

        @Override
        public int copies() {
            return 2;
        }

        @Override
        public List<String> place(PlacementInput in) throws PlacementException {
            if (boom != null) {
                throw boom;
            }
            return answer;
        }
    }

    @Test
    void decide_badAnswers_areRefusedNotUsed() {
        assertEquals("policy answering chose [seoul], not 2 regions", decideWith(new Answering(List.of("seoul"), null)));
        assertEquals("policy answering chose a region twice: [seoul, seoul]",
                decideWith(new Answering(List.of("seoul", "seoul"), null)));
        assertEquals("policy answering chose atlantis, but atlantis is down",
                decideWith(new Answering(List.of("seoul", "atlantis"), null)));
        assertEquals("policy answering chose null, not 2 regions", decideWith(new Answering(null, null)));
        assertEquals("policy answering failed: java.lang.IllegalStateException: bug",
                decideWith(new Answering(null, new IllegalStateException("bug"))));
        assertEquals(null, decideWith(new Answering(List.of("seoul", "dublin"), null)));
    }

    /** Runs one Answering policy through a PolicySet's checks, registered as a custom policy. */
    static String decideWith(Answering a) {
        PolicySet set = PolicySet.build(PlacementSettings.defaults(), LOADER, List.of(a));
        return set.decide(PlacementRequest.upload("answering", MIB), input("seoul")).refusal();
    }

    /** A full disk where the policy needs a copy is told as such (INSUFFICIENT_STORAGE: S3 507, exit 13), not as a region down. */
    @Test
    void refusals_sayWhenRoomKeptARegionOut() {
        PolicySet set = PolicySet.defaults();
        PolicySet.Decision full = set.decide(PlacementRequest.upload("local", MIB), input("seoul", loads("seoul", disk(64, 4)), 1));
        assertTrue(full.refusal().contains("seoul reports disk full"), full.refusal());
        assertEquals(FailureCode.INSUFFICIENT_STORAGE, full.code());
        PolicySet.Decision alone = set.decide(PlacementRequest.upload("tworandom", MIB),
                input("seoul", Map.of(), 1, "dublin", "saopaulo", "mumbai"));
        assertEquals(FailureCode.UNAVAILABLE, alone.code(), alone.refusal());
        assertTrue(set.decide(PlacementRequest.upload("local", MIB), input("seoul")).ok());
    }
}

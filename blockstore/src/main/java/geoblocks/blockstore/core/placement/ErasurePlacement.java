package geoblocks.blockstore.core.placement;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.core.ec.ErasureCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the k + m fragments of an erasure-coded block go (pure): k + m distinct regions, at most one
 * per zone of the cluster layout while zones last, nearest first from the deciding node (this node
 * first when it can take one, as {@code localclosest} does). Fragment i goes to the i-th region of the
 * answer, so the k data fragments sit in the k nearest regions: a read from here needs no decoding
 * while they are up, and re-encoding a copy held here sends the least across regions. When the
 * zones are fewer than k + m, each next fragment goes to the nearest candidate in a zone holding the
 * fewest fragments so far (a zone then holds more than one; a zone with more than m of them loses
 * the block with it). Regions are the {@link PlacementInput#candidates() candidates}: up, active and
 * with room for a fragment (the input's block size is the fragment's length). A code the candidates
 * cannot hold is refused, naming the numbers.
 *
 * <p>Not a {@link PlacementPolicy}: the manifest cannot record fragments yet, so {@code put} cannot
 * reach it (docs/erasure-coding.md). Presets fit the cluster's size ({@link #presetCode}); a
 * declarative policy says {@code ec { data = k, parity = m }} ({@link #parse}).
 */
public final class ErasurePlacement {
    private static final Set<String> KEYS = Set.of("data", "parity");
    private final String name;
    private final ErasureCode code;

    public ErasurePlacement(String name, ErasureCode code) {
        this.name = name;
        this.code = code;
    }

    public String name() {
        return name;
    }

    public ErasureCode code() {
        return code;
    }

    /**
     * The built-in code for a cluster of {@code regions} active regions: m = 1 up to 5 regions, 2 up
     * to 8, 3 from 9; k = min(regions - m, 6) (3: 2+1 at 1.5x, 4: 3+1 at 1.33x, 5: 4+1, 6: 4+2,
     * 7: 5+2, 8: 6+2, 9 and more: 6+3). k stays at most 6 because a read asks k regions. Fewer than
     * 3 regions have no code that beats copies, and are refused.
     */
    public static ErasureCode presetCode(int regions) {
        if (regions < 3) {
            throw new IllegalArgumentException("erasure coding needs >= 3 active regions (2 data + 1 parity), the cluster has "
                    + regions);
        }
        int parity = regions <= 5 ? 1 : regions <= 8 ? 2 : 3;
        return new ErasureCode(Math.min(regions - parity, 6), parity);
    }

    /** The preset of {@link #presetCode}, named {@code ec-K-M}. */
    public static ErasurePlacement preset(int regions) {
        ErasureCode c = presetCode(regions);
        return new ErasurePlacement("ec-" + c.data() + "-" + c.parity(), c);
    }

    /**
     * Reads {@code ec { data = k, parity = m }} ({@code value}, at config path {@code key}) for policy
     * {@code name} in a cluster of {@code regions} active regions. Every refusal is an
     * IllegalArgumentException whose message starts with the key.
     */
    public static ErasurePlacement parse(String name, String key, ConfigValue value, int regions) {
        if (value.valueType() != ConfigValueType.OBJECT) {
            throw new IllegalArgumentException(key + " must be an object { data = k, parity = m }, was "
                    + value.valueType().name().toLowerCase(Locale.ROOT));
        }
        Config c = value.atKey("ec").getConfig("ec");
        for (String k : new TreeSet<>(c.root().keySet())) {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(key + "." + k + ": unknown key; known keys are " + new TreeSet<>(KEYS));
            }
        }
        int[] dp = new int[2];
        List<String> keys = List.of("data", "parity");
        for (int i = 0; i < 2; i++) {
            String k = keys.get(i);
            if (!c.hasPath(k)) {
                throw new IllegalArgumentException(key + "." + k + " is missing");
            }
            ConfigValue v = c.getValue(k);
            if (v.valueType() != ConfigValueType.NUMBER || !(v.unwrapped() instanceof Integer n)) {
                throw new IllegalArgumentException(key + "." + k + " must be a whole number, was " + v.render());
            }
            dp[i] = n;
        }
        ErasureCode code;
        try {
            code = new ErasureCode(dp[0], dp[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
        if (code.fragments() > regions) {
            throw new IllegalArgumentException(key + ": data + parity = " + code.data() + " + " + code.parity() + " = "
                    + code.fragments() + " fragments, one per region, but the cluster has " + regions + " active regions");
        }
        return new ErasurePlacement(name, code);
    }

    /** The regions of fragments 0..k+m-1: data fragments first, nearest first, zones spread. */
    public List<String> place(PlacementInput in) throws PlacementException {
        List<String> order = in.nearestFirst(in.candidates());
        if (order.size() < code.fragments()) {
            List<String> why = new ArrayList<>();
            for (String r : new TreeSet<>(known(in))) {
                String w = in.whyNot(r);
                if (w != null) {
                    why.add(w);
                }
            }
            throw new PlacementException(name + ": code " + code + " needs " + code.fragments() + " regions (one per fragment)"
                    + " that are up, active and have room for a fragment of " + in.blockBytes() + " bytes; "
                    + order.size() + " are " + order + (why.isEmpty() ? "" : " (" + String.join("; ", why) + ")"));
        }
        Map<String, Integer> perZone = new HashMap<>();
        List<String> out = new ArrayList<>();
        while (out.size() < code.fragments()) {
            String best = null;
            int fewest = Integer.MAX_VALUE;
            for (String r : order) {
                int n = perZone.getOrDefault(in.zoneOf(r), 0);
                if (!out.contains(r) && n < fewest) {
                    best = r;
                    fewest = n;
                }
            }
            out.add(best);
            perZone.merge(in.zoneOf(best), 1, Integer::sum);
        }
        return out;
    }

    private static Set<String> known(PlacementInput in) {
        Set<String> all = new TreeSet<>(in.rtt().upRegions());
        all.addAll(in.rtt().down());
        return all;
    }

    /** One line for {@code client policies}, once the write path exists. */
    public String describe() {
        return "erasure code " + code + " (" + String.format(Locale.ROOT, "%.2f", code.overhead())
                + "x): fragments in " + code.fragments() + " regions, one per zone where zones allow, data nearest";
    }
}

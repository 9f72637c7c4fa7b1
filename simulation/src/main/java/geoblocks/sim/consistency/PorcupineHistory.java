package geoblocks.sim.consistency;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The create-if-absent register of every name of a run, as histories for a linearizability
 * checker (scripts/porcupine, Porcupine): one JSON line per name that was created-if-absent, with
 * its creates (won, exists, or unknown: the client was told the outcome is unknown, so the op may
 * take effect at any time after its call) and the reads of its newest version at its owner region
 * (reads elsewhere are only eventually consistent, so they are left out). Creates refused before
 * reaching the owner (its region unreachable) had no effect and are left out too. Times are
 * simulated milliseconds.
 */
public final class PorcupineHistory {
    private PorcupineHistory() {}

    public static List<String> lines(ConsistencyCheck.Report r, List<String> regions) {
        Set<String> names = new TreeSet<>();
        r.writes().stream().filter(w -> w.kind().equals("CREATE")).forEach(w -> names.add(w.name()));
        List<String> out = new ArrayList<>();
        for (String name : names) {
            String owner = ConsistencyCheck.owner(name, regions);
            List<String> ops = new ArrayList<>();
            for (ConsistencyCheck.Write w : r.writes()) {
                if (!w.name().equals(name) || !w.kind().equals("CREATE")) {
                    continue;
                }
                String outcome = switch (w.outcome()) {
                    case "ok" -> "won";
                    case "exists" -> "exists";
                    case "unknown" -> "unknown";
                    default -> null; // refused before the owner decided: no effect
                };
                if (outcome != null) {
                    ops.add(op(regions.indexOf(w.region()), "create", w.callMs(), w.returnMs(), outcome, w.version()));
                }
            }
            for (ConsistencyCheck.Read rd : r.reads()) {
                if (rd.name().equals(name) && rd.region().equals(owner) && !rd.head().startsWith("error:")) {
                    ops.add(op(regions.indexOf(rd.region()), "read", rd.callMs(), rd.returnMs(), "",
                            rd.head().equals("none") ? "" : rd.head()));
                }
            }
            out.add("{\"seed\":" + r.seed() + ",\"name\":\"" + name + "\",\"owner\":\"" + owner + "\",\"ops\":["
                    + String.join(",", ops) + "]}");
        }
        return out;
    }

    private static String op(int client, String kind, long call, long ret, String outcome, String version) {
        return "{\"client\":" + client + ",\"kind\":\"" + kind + "\",\"call\":" + call + ",\"ret\":" + ret
                + ",\"outcome\":\"" + outcome + "\",\"version\":\"" + version + "\"}";
    }
}

package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The steps of moving a file's replicas to a new set of regions ({@code client move}), without
 * I/O, in the order that keeps every block readable:
 * <ol>
 *   <li>{@link #copies()}: each target region that lacks a block gets a copy from the block's
 *       current holders;
 *   <li>{@link #moved(Manifest)}: once every copy is durable, the manifest names the targets (and
 *       only them) for every block: the same file, the same {@link Version}, new homes, the location
 *       epoch one higher ({@link Manifest#withLocations}), so this copy replaces the old locations
 *       wherever the two meet (publication, lookups, anti-entropy);
 *   <li>{@link #drops()}: once that manifest is stored and published, the regions that held a block
 *       but are no longer its home delete their copy.
 * </ol>
 * A move moves one version: the current one (the newest, not a delete) when the move was asked.
 * Earlier versions kept for {@code get --version} stay where they are (their blocks are other files'
 * blocks, so nothing they name is dropped). If the name got a newer version or was deleted in the
 * meantime ({@link #moved} sees another file id or version), the move must not touch it;
 * {@link #copiesMade()} are then the copies to delete again.
 *
 * <p>A client's move and a rebalance move whole versions: every block to the same targets. A drain
 * moves block by block ({@link #blockwise}): each block keeps its homes that stay and gets a new one
 * for each copy at the draining region, so blocks whose copies are elsewhere do not move.
 */
public final class MovePlan {
    /** One copy to make: block {@code block} to region {@code target}, from any of {@code holders}. */
    public record Copy(int block, String target, List<String> holders) {}

    private final Manifest from;
    /** Every region some block goes to, in order of first mention. */
    private final List<String> to;
    /** Each block's homes after the move. */
    private final List<List<String>> blockTo;

    /**
     * A whole move: every block of {@code from} to {@code to}.
     *
     * @throws IllegalArgumentException when {@code to} is empty, repeats a region or names one that
     *     is not in {@code cluster}
     */
    public MovePlan(Manifest from, List<String> to, Set<String> cluster) {
        this.from = from;
        this.to = validate(to, cluster);
        this.blockTo = Collections.nCopies(from.blocks().size(), this.to);
    }

    private MovePlan(Manifest from, List<List<String>> blockTo, Set<String> cluster, boolean checked) {
        this.from = from;
        if (blockTo.size() != from.blocks().size()) {
            throw new IllegalArgumentException("homes for " + blockTo.size() + " blocks, the version of '" + from.name()
                    + "' has " + from.blocks().size());
        }
        List<List<String>> out = new ArrayList<>(blockTo.size());
        for (List<String> b : blockTo) {
            out.add(validate(b, cluster));
        }
        this.blockTo = List.copyOf(out);
        this.to = MoveRecord.union(this.blockTo);
    }

    /**
     * A move block by block: block {@code i} of {@code from} to {@code blockTo.get(i)}.
     *
     * @throws IllegalArgumentException when the list has another length than {@code from}'s blocks,
     *     or a block's homes are empty, repeat a region or name one that is not in {@code cluster}
     */
    public static MovePlan blockwise(Manifest from, List<List<String>> blockTo, Set<String> cluster) {
        return new MovePlan(from, blockTo, cluster, true);
    }

    /** The plan of a kept move ({@link MoveRecord}). */
    public static MovePlan of(MoveRecord r, Set<String> cluster) {
        return r.whole() ? new MovePlan(r.from(), r.targets(), cluster) : blockwise(r.from(), r.blockTargets(), cluster);
    }

    /** The record that keeps this move from its start ({@code startedMillis}, epoch ms) to its end. */
    public MoveRecord record(long startedMillis) {
        return new MoveRecord(from, to, startedMillis, blockTo);
    }

    /** The target regions, checked: non-empty, distinct, members of {@code cluster}. */
    public static List<String> validate(List<String> to, Set<String> cluster) {
        if (to.isEmpty()) {
            throw new IllegalArgumentException("--to needs at least one region");
        }
        Set<String> seen = new HashSet<>();
        for (String r : to) {
            if (!cluster.contains(r)) {
                throw new IllegalArgumentException("unknown region '" + r + "'; the cluster has " + new TreeSet<>(cluster));
            }
            if (!seen.add(r)) {
                throw new IllegalArgumentException("region '" + r + "' is named twice in --to");
            }
        }
        return List.copyOf(to);
    }

    /** Every region some block goes to, in order of first mention (all of them, in a whole move). */
    public List<String> targets() {
        return to;
    }

    /** Block {@code i}'s homes after the move. */
    public List<String> targets(int block) {
        return blockTo.get(block);
    }

    /** The copies to make, block by block, targets in the order given. */
    public List<Copy> copies() {
        List<Copy> out = new ArrayList<>();
        for (int i = 0; i < from.blocks().size(); i++) {
            List<String> holders = from.blocks().get(i).replicas();
            for (String t : blockTo.get(i)) {
                if (!holders.contains(t)) {
                    out.add(new Copy(i, t, holders));
                }
            }
        }
        return out;
    }

    /** Nothing to do: every block already lives exactly at its targets. */
    public boolean noop() {
        return noopFor(from);
    }

    /** Every block of {@code m} lives exactly at its targets (a move of it that was committed). */
    public boolean noopFor(Manifest m) {
        if (m.blocks().size() != blockTo.size()) {
            return false;
        }
        for (int i = 0; i < blockTo.size(); i++) {
            if (!new HashSet<>(m.blocks().get(i).replicas()).equals(new HashSet<>(blockTo.get(i)))) {
                return false;
            }
        }
        return true;
    }

    /** The copies made by {@link #copies()}, by region: what to delete if the move is abandoned. */
    public Map<String, List<Integer>> copiesMade() {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (Copy c : copies()) {
            out.computeIfAbsent(c.target(), k -> new ArrayList<>()).add(c.block());
        }
        return out;
    }

    /**
     * The manifest after the move: {@code current} (the same version as planned, at whatever location
     * epoch it has now) with every block's replicas set to its targets and the epoch one higher.
     * A target the plan made no copy at (it was a home of the block when planned) must still be a home
     * of the block in {@code current}: another move committed meanwhile may have dropped that copy, and
     * naming the target would then name a copy that does not exist.
     *
     * @throws IllegalStateException when {@code current} is another file or version than the one
     *     planned (a newer version written under the same name meanwhile), or a delete, or when its
     *     homes changed so that a target would hold no copy
     */
    public Manifest moved(Manifest current) {
        if (!current.fileId().equals(from.fileId()) || !current.version().equals(from.version()) || current.deleted()) {
            throw new IllegalStateException("'" + from.name() + "' got a newer version while moving (version "
                    + from.version().id() + " of file " + from.fileId() + " is now "
                    + (current.deleted() ? "a delete " : "") + current.version().id() + " of file " + current.fileId() + ")");
        }
        for (int i = 0; i < from.blocks().size(); i++) {
            List<String> was = from.blocks().get(i).replicas();
            List<String> now = i < current.blocks().size() ? current.blocks().get(i).replicas() : List.of();
            for (String t : blockTo.get(i)) {
                if (was.contains(t) && !now.contains(t)) {
                    throw new IllegalStateException("the homes of '" + from.name() + "' changed while moving (location"
                            + " epoch " + from.locEpoch() + " is now " + current.locEpoch() + "): block " + i
                            + " is no longer at " + t + ", where this move made no copy of it");
                }
            }
        }
        List<Manifest.BlockRef> blocks = new ArrayList<>();
        for (int i = 0; i < current.blocks().size(); i++) {
            blocks.add(current.blocks().get(i).withReplicas(blockTo.get(i)));
        }
        return current.withLocations(blocks);
    }

    /** The old copies to delete after the moved manifest is published: by region, the blocks it no longer homes. */
    public Map<String, List<Integer>> drops() {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (int i = 0; i < from.blocks().size(); i++) {
            for (String r : from.blocks().get(i).replicas()) {
                if (!blockTo.get(i).contains(r)) {
                    out.computeIfAbsent(r, k -> new ArrayList<>()).add(i);
                }
            }
        }
        return out;
    }
}

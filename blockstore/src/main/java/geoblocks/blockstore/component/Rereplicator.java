package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.placement.PlacementRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Brings blocks whose replica sits on a node that has been down for {@code replaceAfterNanos}
 * back to their replica count: copies the block (fetched and checked like a download) to the region
 * the file's placement policy picks for a new copy next to the ones that stay (asked of the
 * placement component; for the seed policies the nearest up region, this node first, that does not
 * hold it yet and has room), and only once that copy is durable rewrites the
 * locations of that version ({@link Manifest#withLocations}: same version, next location epoch,
 * so anti-entropy carries the change everywhere) and publishes it. Every version kept is covered,
 * earlier ones too. One leader per file does
 * this (the smallest up region holding any of its blocks), so two nodes never rewrite the same
 * manifest at once; one block at a time. The copy is a background one ({@link ReplicaCopy}): over
 * LEDBAT when background-transport = ledbat, the target confirming once it is durable.
 */
final class Rereplicator {
    private final Node node;
    private final long replaceAfterNanos;
    private final ReplicaCopy copies;
    private final Map<String, Long> downSince = new HashMap<>();
    private String cursor = "";
    private boolean busy;
    long replaced;

    Rereplicator(Node node, long replaceAfterNanos, ReplicaCopy copies) {
        this.copies = copies;
        this.node = node;
        this.replaceAfterNanos = replaceAfterNanos;
    }

    void onRtt(RttTable table, long now) {
        for (String peer : node.peerRegions()) {
            if (table.isUp(peer)) {
                downSince.remove(peer);
            } else {
                downSince.putIfAbsent(peer, now);
            }
        }
    }

    void tick(long now) {
        if (busy || replaceAfterNanos <= 0) {
            return;
        }
        TreeSet<String> gone = new TreeSet<>();
        downSince.forEach((r, since) -> {
            if (now - since > replaceAfterNanos) {
                gone.add(r);
            }
        });
        if (gone.isEmpty()) {
            return;
        }
        List<ManifestHistory> page = node.manifests().histories(cursor, 50);
        if (page.isEmpty()) {
            cursor = "";
            return;
        }
        for (ManifestHistory h : page) {
            cursor = h.name();
            for (Manifest m : h.versions()) {
                if (!leads(m)) {
                    continue;
                }
                for (int i = 0; i < m.blocks().size(); i++) {
                    for (String r : m.blocks().get(i).replicas()) {
                        if (gone.contains(r)) {
                            replace(m, i, r);
                            return;
                        }
                    }
                }
            }
        }
    }

    /** This node leads a file when it is the smallest up region holding any of its blocks. */
    private boolean leads(Manifest m) {
        TreeSet<String> holders = new TreeSet<>();
        m.blocks().forEach(b -> b.replicas().stream().filter(node.rtt()::isUp).forEach(holders::add));
        return !holders.isEmpty() && holders.first().equals(node.region());
    }

    /** Starts copying block {@code index} away from {@code gone} to where the placement component says. */
    private void replace(Manifest m, int index, String gone) {
        Manifest.BlockRef ref = m.blocks().get(index);
        List<String> held = new ArrayList<>(ref.replicas());
        held.remove(gone);
        BlockId id = m.blockId(index);
        busy = true;
        node.placeOrFail(PlacementRequest.replacement(m.policy(), ref.length(), held), targets -> {
            String target = targets.get(0);
            Downloads.fetch(node, m, index, data -> store(m.name(), m.version(), index, id, data, ref.crc(), gone, target),
                    why -> done("cannot read block " + id + " to re-replicate it: " + why.text()));
        }, why -> done("no region can take a new copy of block " + id + " of '" + m.name() + "': " + why.text()));
    }

    private void store(String name, Version version, int index, BlockId id, byte[] data, int crc, String gone,
            String target) {
        if (target.equals(node.region())) {
            node.storeLocal(id, data, crc, s -> {
                if (s.ok()) {
                    rewrite(name, version, index, gone, target);
                } else {
                    done("storing " + id + " here failed: " + s.failure().text());
                }
            });
            return;
        }
        copies.background(node.addressOf(target), id, data, crc, why -> {
            if (why == null) {
                rewrite(name, version, index, gone, target);
            } else {
                done("copy of " + id + " to " + target + copies.via() + " failed: " + why.text());
            }
        });
    }

    /** The new copy is durable: replace the gone region in that version's locations and publish it. */
    private void rewrite(String name, Version version, int index, String gone, String target) {
        Manifest m = node.manifests().history(name).flatMap(h -> h.find(version)).orElse(null);
        if (m == null || index >= m.blocks().size() || !m.blocks().get(index).replicas().contains(gone)) {
            done(null); // dropped or already changed meanwhile; the extra copy is harmless
            return;
        }
        List<Manifest.BlockRef> blocks = new ArrayList<>(m.blocks());
        Manifest.BlockRef old = blocks.get(index);
        List<String> replicas = new ArrayList<>(old.replicas());
        replicas.set(replicas.indexOf(gone), target);
        blocks.set(index, old.withReplicas(replicas));
        Manifest updated = m.withLocations(blocks);
        try {
            node.versions().merge(ManifestHistory.of(updated));
        } catch (IOException e) {
            done("saving the manifest of '" + name + "' failed: " + e.getMessage());
            return;
        }
        replaced++;
        Logs.info(node.region() + ": block " + index + " of '" + name + "' (version " + version + ") re-replicated from "
                + gone + " to " + target);
        new ManifestPublisher(node, updated, unreached -> done(null)).start();
    }

    private void done(String problem) {
        if (problem != null) {
            Logs.warn(node.region() + ": " + problem);
        }
        busy = false;
    }
}

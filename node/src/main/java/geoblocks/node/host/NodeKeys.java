package geoblocks.node.host;

import geoblocks.blockstore.component.MemberKeys;
import geoblocks.net.DurableFile;
import geoblocks.net.NetAddress;
import geoblocks.network.session.NodeIdentity;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's keys as its network uses them: the keys the cluster layout names for the members, handed to
 * the handshakes ({@link NodeIdentity#learn}), and this node's own key, rotated without downtime:
 * {@link #prepareRotation} makes the next key ({@code DATA/node.key.next}) to name in the layout
 * ({@code rekey}); while the layout names both, peers accept either, and the node keeps signing with its
 * current key until every member reported the layout with the new one ({@link #ownKeySettled}); then it
 * signs with the new key and makes it {@code DATA/node.key}. {@code cluster retire-key} ends the rotation.
 */
public final class NodeKeys implements MemberKeys {
    public static final String FILE = "node.key";
    public static final String NEXT = "node.key.next";
    private static final Logger LOG = LoggerFactory.getLogger(NodeKeys.class);
    private final NodeIdentity identity;
    private final Path dataDir;
    private KeyPair next;

    /** Over {@code identity}, with the node's key files in {@code dataDir} (null: a node without key files, tests). */
    public NodeKeys(NodeIdentity identity, Path dataDir) throws IOException {
        this.identity = identity;
        this.dataDir = dataDir;
        if (dataDir != null && Files.exists(dataDir.resolve(NEXT))) {
            next = NodeIdentity.loadOrCreate(dataDir.resolve(NEXT)); // a rotation under way when the node stopped
        }
    }

    @Override
    public boolean required() {
        return identity.keyed();
    }

    @Override
    public void layoutKeys(Map<String, List<String>> byAddress) {
        Map<NetAddress, List<PublicKey>> keys = new HashMap<>();
        byAddress.forEach((address, ks) -> {
            try {
                keys.put(NetAddress.parse(address), ks.stream().map(NodeIdentity::parse).toList());
            } catch (IllegalArgumentException e) {
                // the layout checked the keys' form; an address that does not resolve has no connections to check
                LOG.warn("the layout's key for {} is not used: {}", address, e.getMessage());
            }
        });
        identity.learn(keys);
    }

    @Override
    public String checkedKey(String address) {
        try {
            PublicKey k = identity.keyOf(NetAddress.parse(address));
            return k == null ? "" : NodeIdentity.format(k);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** The public key of the next key pair, made and kept in {@code DATA/node.key.next} first if there is none. */
    public synchronized String prepareRotation() throws IOException {
        if (dataDir == null) {
            throw new IllegalStateException("this node keeps no key files");
        }
        if (next == null) {
            next = NodeIdentity.loadOrCreate(dataDir.resolve(NEXT));
        }
        return NodeIdentity.format(next.getPublic());
    }

    @Override
    public synchronized void ownKeySettled(String key) {
        if (next == null || !NodeIdentity.format(next.getPublic()).equals(key)) {
            return;
        }
        identity.useOwn(next.getPrivate());
        try {
            try {
                Files.move(dataDir.resolve(NEXT), dataDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(dataDir.resolve(NEXT), dataDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING);
            }
            DurableFile.syncDirectory(dataDir); // the rename, durable (the key's bytes were synced when written)
            LOG.info("node key rotated: every member accepts {}; it signs from now on and is {}", key, dataDir.resolve(FILE));
        } catch (IOException e) {
            // signing with it already; the file is moved at the next start (the layout names it then)
            LOG.warn("node key {} in use, but moving {} to {} failed: {}", key, NEXT, FILE, e.toString());
        }
        next = null;
    }
}

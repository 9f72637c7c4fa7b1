package geoblocks.blockstore.component;

import java.util.List;
import java.util.Map;

/**
 * Where the node's network learns the node keys the cluster layout names, and whether the cluster's
 * nodes prove keys at all. Production's is the network's own (its handshake checks a connection that
 * claims a member's address against the member's key); {@link #NONE} knows of no keys.
 */
public interface MemberKeys {
    /** No keys: regions are added without one, and the layout's keys are ignored. */
    MemberKeys NONE = new MemberKeys() {
        @Override
        public boolean required() {
            return false;
        }

        @Override
        public void layoutKeys(Map<String, List<String>> byAddress) {
        }

        @Override
        public void ownKeySettled(String key) {
        }

        @Override
        public String checkedKey(String address) {
            return "";
        }
    };

    /** Whether the cluster's nodes prove keys (its config names some): a region may then only be added with one. */
    boolean required();

    /**
     * The keys the current layout names, by member address ({@code host:port} to {@code ed25519:...}): the
     * member's key, then its previous one while it rotates (both accepted).
     */
    void layoutKeys(Map<String, List<String>> byAddress);

    /**
     * Every member has reported a layout version naming {@code key} as this node's key (so every peer
     * accepts it): a node rotating its key may sign with the new one from now on.
     */
    void ownKeySettled(String key);

    /** The key the network checks now for a connection claiming {@code address} ({@code host:port}); "" for none. */
    String checkedKey(String address);
}

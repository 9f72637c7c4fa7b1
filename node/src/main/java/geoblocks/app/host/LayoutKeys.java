package geoblocks.app.host;

import geoblocks.blockstore.component.MemberKeys;
import geoblocks.net.NetAddress;
import geoblocks.network.session.NodeIdentity;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The node keys a cluster layout names, handed to the node's network ({@link NodeIdentity#learn}). */
final class LayoutKeys implements MemberKeys {
    private static final Logger LOG = LoggerFactory.getLogger(LayoutKeys.class);
    private final NodeIdentity identity;

    LayoutKeys(NodeIdentity identity) {
        this.identity = identity;
    }

    @Override
    public boolean required() {
        return identity.keyed();
    }

    @Override
    public void layoutKeys(Map<String, String> byAddress) {
        Map<NetAddress, PublicKey> keys = new HashMap<>();
        byAddress.forEach((address, key) -> {
            try {
                keys.put(NetAddress.parse(address), NodeIdentity.parse(key));
            } catch (IllegalArgumentException e) {
                // the layout checked the key's form; an address that does not resolve has no connections to check
                LOG.warn("the layout's key for {} is not used: {}", address, e.getMessage());
            }
        });
        identity.learn(keys);
    }
}

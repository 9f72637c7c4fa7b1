package geoblocks.blockstore.port;

import se.sics.kompics.PortType;

/**
 * What a node shows its operator: the file service publishes a {@link NodeSnapshot} on it about
 * once a second. Readers outside Kompics (the HTTP server) keep the latest one; they never touch
 * the components' state, which belongs to the components' own threads.
 */
public final class OpsPort extends PortType {
    {
        indication(NodeSnapshot.class);
    }
}

package geoblocks.ledbat.port;

import se.sics.kompics.PortType;

/**
 * The LEDBAT congestion port: reliable, in-order, low-priority byte streams to peers. Requests
 * open a stream, queue bytes on it and close it; indications report the opened stream, bytes
 * delivered at the receiver, acknowledged progress at the sender, the end (closed or failed) of a
 * stream, and periodic statistics (per stream, per peer, drop counters). All streams to one peer
 * share one congestion-controlled flow.
 */
public final class LedbatPort extends PortType {
    {
        request(OpenStream.class);
        request(SendData.class);
        request(CloseStream.class);
        request(ForegroundActive.class);
        indication(StreamOpened.class);
        indication(DataReceived.class);
        indication(SendProgress.class);
        indication(StreamClosed.class);
        indication(StreamFailed.class);
        indication(StreamStats.class);
        indication(PeerStats.class);
        indication(TransportStats.class);
    }
}

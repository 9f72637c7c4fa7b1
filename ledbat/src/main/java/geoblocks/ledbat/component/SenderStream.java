package geoblocks.ledbat.component;

import geoblocks.ledbat.core.BaseDelayHistory;
import geoblocks.ledbat.core.LedbatController;
import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.core.SendWindow;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import se.sics.kompics.network.Transport;

/** State of one sending stream inside {@link LedbatComponent}: window, controller and timers. */
final class SenderStream {
    final int id;
    final NetAddress peer;
    final NetHeader header;
    final SendWindow window;
    final LedbatController controller;
    long rtoDeadline = -1;
    int consecutiveTimeouts;
    long timeouts;
    long notifiedAcked;
    long receiverDuplicates;
    long receiverOutOfOrder;

    SenderStream(int id, NetAddress self, NetAddress peer, LedbatSettings s, BaseDelayHistory base) {
        this.id = id;
        this.peer = peer;
        this.header = new NetHeader(self, peer, Transport.UDP);
        this.window = new SendWindow(s.mss);
        this.controller = new LedbatController(s, base);
    }
}

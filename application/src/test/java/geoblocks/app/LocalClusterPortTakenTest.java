package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which start failures make {@link LocalCluster#start} try again on new ports. */
class LocalClusterPortTakenTest {
    @Test
    void theNodesOwnWordsForATakenPort_startAgain() {
        assertTrue(LocalCluster.portTaken("node saopaulo exited with 1:\nerror: http-port 34961 on 127.0.0.1 is in use"));
        assertTrue(LocalCluster.portTaken("node seoul exited with 1:\nerror: port 47100 on 127.0.0.1 is in use: is node"
                + " seoul already running?"));
        assertTrue(LocalCluster.portTaken("java.net.BindException: Address already in use"));
    }

    @Test
    void otherFailures_doNot() {
        assertFalse(LocalCluster.portTaken(null));
        assertFalse(LocalCluster.portTaken("node seoul exited with 1:\nerror: 10.231.0.111 is not an address of this host"));
        assertFalse(LocalCluster.portTaken("node seoul did not listen within 60 s"));
    }
}

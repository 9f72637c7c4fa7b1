package geoblocks.app.ledbat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The client's result, completed once from a Kompics thread and awaited by the command. */
final class ClientOutcome {
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile int code = 1;
    private volatile String report = "timed out";

    synchronized void complete(int code, String report) {
        if (done.getCount() > 0) {
            this.code = code;
            this.report = report;
            done.countDown();
        }
    }

    boolean await(long seconds) throws InterruptedException {
        return done.await(seconds, TimeUnit.SECONDS);
    }

    int code() {
        return code;
    }

    String report() {
        return report;
    }
}

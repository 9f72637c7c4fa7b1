package geoblocks.ledbat.port;

import se.sics.kompics.KompicsEvent;

/**
 * Indication at the sender: {@code ackedBytes} bytes of the stream are acknowledged (cumulatively),
 * {@code queuedBytes} are still waiting to be sent. Raised every {@code progress-bytes} of progress
 * and whenever the queue runs dry.
 */
public record SendProgress(int streamId, long ackedBytes, long queuedBytes) implements KompicsEvent {}

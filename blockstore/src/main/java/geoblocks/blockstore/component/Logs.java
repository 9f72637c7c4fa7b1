package geoblocks.blockstore.component;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The file service's log, for its plain-class parts. */
final class Logs {
    private static final Logger LOG = LoggerFactory.getLogger(FileService.class);

    private Logs() {}

    static void info(String msg) {
        LOG.info(msg);
    }

    static void warn(String msg) {
        LOG.warn(msg);
    }
}

package geoblocks.node;

import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.RttProbe;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.net.MessageAuth;
import geoblocks.net.netty.CodecSerializer;
import geoblocks.node.host.NetworkChoice;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.Fault;
import se.sics.kompics.Kompics;

/**
 * JVM-wide setup before a Kompics runtime starts: message serializers (ids 100, 101; LEDBAT uses
 * 110) with the cluster secret's authentication tag on every message, Kompics' Java serializer
 * disabled, a fault handler that logs a failing handler instead of exiting the JVM, and a private
 * place for the UDT native library Kompics' Netty component extracts.
 */
public final class KompicsSetup {
    private static final Logger LOG = LoggerFactory.getLogger(KompicsSetup.class);
    private static boolean done;

    private KompicsSetup() {}

    public static synchronized void prepare(AppConfig config) {
        prepare(config.secret());
    }

    /** As above, Kompics' own network (kompics-netty) tagging messages under {@code secret}. */
    public static synchronized void prepare(String secret) {
        if (done) {
            return;
        }
        done = true;
        if (System.getProperty("com.barchart.udt.library.extract.location") == null) {
            System.setProperty("com.barchart.udt.library.extract.location",
                    Path.of(System.getProperty("java.io.tmpdir"), "geoblocks-udt-" + ProcessHandle.current().pid()).toString());
        }
        CodecSerializer.blockJavaSerialization();
        CodecSerializer.authenticate(new MessageAuth(secret));
        CodecSerializer.register(FileCodec.INSTANCE, NetworkChoice.FILE_CODEC_ID, "geoblocks-file");
        CodecSerializer.register(RttProbe.CODEC, NetworkChoice.RTT_CODEC_ID, "geoblocks-rtt");
        CodecSerializer.register(LedbatCodec.INSTANCE, LedbatCodec.SERIALIZER_ID, "ledbat");
        Kompics.setFaultHandler(fault -> {
            LOG.error("handler failed in {} on {}; event dropped, component kept", fault.getSource(),
                    fault.getEvent(), fault.getCause());
            return Fault.ResolveAction.IGNORE;
        });
    }
}

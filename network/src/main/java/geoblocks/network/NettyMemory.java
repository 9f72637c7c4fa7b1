package geoblocks.network;

import io.netty.util.internal.PlatformDependent;

/**
 * How Netty gets the direct memory its buffer pool is carved from. Netty creates a pool chunk
 * (4 MiB) when the chunks it has are full, and frees a chunk as soon as nothing in it is used, so
 * a download's bursts of 1 MiB frames keep creating chunks. Without access to the JDK's private
 * {@code DirectByteBuffer} constructor it creates each one with {@code ByteBuffer.allocateDirect},
 * which zeroes the memory first: measured on the serving node of {@code bench}, the zeroing of new
 * chunks took about 6 % of the node's CPU during gets (46 of 782 samples). With the access (the
 * program's jar opens {@code java.base/java.nio} in its manifest, and {@link #beforeNetty} allows
 * Netty to use it) Netty takes the memory as it comes, since every buffer is written before it is
 * read.
 */
public final class NettyMemory {
    /** The system property Netty reads, once, when its first class loads. */
    static final String PROPERTY = "io.netty.tryReflectionSetAccessible";

    private NettyMemory() {}

    /**
     * Lets Netty use the JDK's non-zeroing direct buffer constructor, unless the property is set
     * already. Call it before anything touches Netty (Netty reads the property once); without
     * {@code --add-opens java.base/java.nio=ALL-UNNAMED} (or the jar manifest's {@code Add-Opens})
     * Netty finds no access and keeps zeroing, which is only slower.
     */
    public static void beforeNetty() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "true");
        }
    }

    /** Whether Netty allocates its direct memory without zeroing it (after {@link #beforeNetty}, for the node's start line). */
    public static boolean unzeroed() {
        return PlatformDependent.useDirectBufferNoCleaner();
    }
}

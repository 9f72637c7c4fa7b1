package geoblocks.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** NettyMemory sets Netty's property only when nobody chose a value (an operator's -D wins). */
class NettyMemoryTest {
    @Test
    void anExplicitSetting_isKept_andAMissingOneIsSetToTrue() {
        String before = System.getProperty(NettyMemory.PROPERTY);
        try {
            System.setProperty(NettyMemory.PROPERTY, "false");
            NettyMemory.beforeNetty();
            assertEquals("false", System.getProperty(NettyMemory.PROPERTY));
            System.clearProperty(NettyMemory.PROPERTY);
            NettyMemory.beforeNetty();
            assertEquals("true", System.getProperty(NettyMemory.PROPERTY));
        } finally {
            if (before == null) {
                System.clearProperty(NettyMemory.PROPERTY);
            } else {
                System.setProperty(NettyMemory.PROPERTY, before);
            }
        }
    }
}

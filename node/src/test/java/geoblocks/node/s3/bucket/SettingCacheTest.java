package geoblocks.node.s3.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SettingCacheTest {
    @Test
    void aValue_isKeptForItsTime_forgottenOnChange_andAFailedReadIsNotKept() {
        AtomicLong now = new AtomicLong(0);
        AtomicInteger loads = new AtomicInteger();
        SettingCache<String> c = new SettingCache<>(now::get, 1000);
        assertEquals("v1", c.get("b", () -> { loads.incrementAndGet(); return CompletableFuture.completedFuture("v1"); }).join());
        now.set(999);
        assertEquals("v1", c.get("b", () -> CompletableFuture.completedFuture("v2")).join(), "within its time");
        now.set(1000);
        assertEquals("v2", c.get("b", () -> CompletableFuture.completedFuture("v2")).join(), "read again after it");
        c.forget("b");
        assertNull(c.get("b", () -> CompletableFuture.completedFuture((String) null)).join(), "none is a value too");
        assertNull(c.get("b", () -> CompletableFuture.completedFuture("v3")).join(), "and is kept");
        c.forget("b");
        CompletableFuture<String> failed = c.get("b", () -> CompletableFuture.failedFuture(new IllegalStateException("disk")));
        assertTrue(failed.isCompletedExceptionally());
        assertEquals("v4", c.get("b", () -> CompletableFuture.completedFuture("v4")).join(), "a failure is not cached");
        assertEquals(1, loads.get());
    }
}

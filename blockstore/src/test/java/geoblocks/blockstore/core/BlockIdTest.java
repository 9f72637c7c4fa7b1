package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class BlockIdTest {

    static List<String> hostileIds() {
        return List.of("../x", "..", ".", "a/b", "/etc/passwd", ".hidden", "", "x".repeat(241),
                "a\\b", "..\\x", "a\0b", "a\0", "\0", "-a", "_a", " a", "a b", "a\n", "a/../../b",
                "C:x", "a:b", "é", "a\u202Eb", "a%2f..", "~root");
    }

    @ParameterizedTest
    @MethodSource("hostileIds")
    void new_hostileOrMalformedId_isRejectedNamingIt(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlockId.of(value));
        assertTrue(e.getMessage().contains("invalid block id"), e.getMessage());
    }

    @Test
    void new_null_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new BlockId(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "Z", "0", "abc", "b-0123abcd-17", "m-6869", "a.b", "a..", "a_b-c.d", "9._-"})
    void new_validId_isAccepted(String value) {
        assertEquals(value, BlockId.of(value).value());
        assertEquals(value, BlockId.of(value).toString());
    }

    @Test
    void new_exactly240Chars_isAccepted() {
        assertEquals(240, BlockId.of("a".repeat(240)).value().length());
    }

    @Test
    void ofFileBlock_namesFileAndIndex() {
        assertEquals(BlockId.of("b-f00d-3"), BlockId.ofFileBlock("f00d", 3));
    }

    @Test
    void ofFileBlock_hostileFileId_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> BlockId.ofFileBlock("../../etc", 0));
    }

    @Test
    void compareTo_sortsByValue() {
        List<BlockId> ids = new ArrayList<>(List.of(BlockId.of("b"), BlockId.of("a2"), BlockId.of("a10"), BlockId.of("B")));
        ids.sort(null);
        assertEquals(List.of(BlockId.of("B"), BlockId.of("a10"), BlockId.of("a2"), BlockId.of("b")), ids);
    }

    @Test
    void equals_sameValue_equalAndSameHash() {
        assertEquals(BlockId.of("x1"), new BlockId("x1"));
        assertEquals(BlockId.of("x1").hashCode(), new BlockId("x1").hashCode());
    }
}

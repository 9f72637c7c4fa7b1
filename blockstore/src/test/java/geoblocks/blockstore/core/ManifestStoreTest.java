package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestStoreTest {
    @TempDir
    Path root;

    FileBlockStorage storage;
    ManifestStore store;

    @BeforeEach
    void open() throws IOException {
        storage = new FileBlockStorage(root);
        store = new ManifestStore(storage);
    }

    private ManifestStore reopen() throws IOException {
        return new ManifestStore(new FileBlockStorage(root));
    }

    private static List<String> names(List<Manifest> ms) {
        return ms.stream().map(Manifest::name).toList();
    }

    private void saveAll(String... names) throws IOException {
        for (int i = 0; i < names.length; i++) {
            store.save(Manifests.of(names[i], 100 + i, 64));
        }
    }

    @Test
    void emptyStore_findsNothingListsNothing() {
        assertEquals(Optional.empty(), store.find("x"));
        assertEquals(List.of(), store.list("", 10));
        assertEquals(0, store.size());
        assertEquals(0, store.corruptOnLoad());
    }

    @Test
    void save_thenFind_returnsManifest() throws IOException {
        Manifest m = Manifests.of("a.txt", 1000, 64);
        store.save(m);
        assertEquals(Optional.of(m), store.find("a.txt"));
        assertEquals(Optional.empty(), store.find("b.txt"));
        assertEquals(1, store.size());
    }

    @Test
    void save_sameNameTwice_replaces() throws IOException {
        store.save(Manifests.of("a", 10, 4));
        Manifest newer = Manifests.of("a", 20, 4);
        store.save(newer);
        assertEquals(Optional.of(newer), store.find("a"));
        assertEquals(1, store.size());
        assertEquals(Optional.of(newer), reopen().find("a"));
    }

    @Test
    void list_pagesInNameOrder() throws IOException {
        saveAll("e", "a", "d", "b", "c", "g", "f");
        assertEquals(List.of("a", "b", "c"), names(store.list("", 3)));
        assertEquals(List.of("d", "e", "f"), names(store.list("c", 3)));
        assertEquals(List.of("g"), names(store.list("f", 3)));
        assertEquals(List.of(), names(store.list("g", 3)));
    }

    @Test
    void list_afterIsExclusiveAndNeedNotExist() throws IOException {
        saveAll("apple", "banana", "cherry");
        assertEquals(List.of("banana", "cherry"), names(store.list("apple", 10)));
        assertEquals(List.of("banana", "cherry"), names(store.list("b", 10)));
        assertEquals(List.of(), names(store.list("zzz", 10)));
    }

    @Test
    void list_limitZero_returnsNothing() throws IOException {
        saveAll("a", "b");
        assertEquals(List.of(), store.list("", 0));
    }

    @Test
    void list_pagingVisitsEveryNameOnce() throws IOException {
        for (int i = 0; i < 25; i++) {
            store.save(Manifests.of(String.format("file-%02d", i), i, 8));
        }
        StringBuilder seen = new StringBuilder();
        String after = "";
        int pages = 0;
        while (true) {
            List<Manifest> page = store.list(after, 4);
            if (page.isEmpty()) {
                break;
            }
            pages++;
            for (Manifest m : page) {
                seen.append(m.name()).append(',');
            }
            after = page.get(page.size() - 1).name();
        }
        assertEquals(7, pages);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            expected.append(String.format("file-%02d", i)).append(',');
        }
        assertEquals(expected.toString(), seen.toString());
    }

    @Test
    void remove_present_returnsTrueAndForgets() throws IOException {
        saveAll("a", "b");
        assertTrue(store.remove("a"));
        assertEquals(Optional.empty(), store.find("a"));
        assertEquals(List.of("b"), names(store.list("", 10)));
        assertFalse(store.remove("a"));
        assertFalse(store.remove("never"));
    }

    @Test
    void reopen_servesSavedManifestsAndForgetsRemoved() throws IOException {
        Manifest a = Manifests.of("a", 1000, 64);
        Manifest big = Manifests.of("big", 20_000L * 8, 8);
        Manifest unicode = Manifests.of("写真 \uD83D\uDE00.jpg", 5, 2);
        Manifest longest = Manifests.of("n".repeat(100), 3, 2);
        store.save(a);
        store.save(big);
        store.save(unicode);
        store.save(longest);
        store.save(Manifests.of("gone", 1, 1));
        store.remove("gone");

        ManifestStore again = reopen();

        assertEquals(4, again.size());
        assertEquals(0, again.corruptOnLoad());
        assertEquals(Optional.of(a), again.find("a"));
        assertEquals(Optional.of(big), again.find("big"));
        assertEquals(Optional.of(unicode), again.find(unicode.name()));
        assertEquals(Optional.of(longest), again.find(longest.name()));
        assertEquals(Optional.empty(), again.find("gone"));
    }

    @Test
    void reopen_corruptManifestBlock_isCountedAndSkipped() throws IOException {
        saveAll("good", "bad");
        Path file = storage.pathOf(ManifestStore.idOf("bad"));
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 10] ^= 0x04;
        Files.write(file, bytes);

        ManifestStore again = reopen();

        assertEquals(1, again.corruptOnLoad());
        assertEquals(Optional.empty(), again.find("bad"));
        assertTrue(again.find("good").isPresent());
        assertEquals(List.of("good"), names(again.list("", 10)));
    }

    @Test
    void reopen_truncatedManifestBlock_isCountedAndSkipped() throws IOException {
        saveAll("a", "b", "c");
        Path file = storage.pathOf(ManifestStore.idOf("b"));
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));

        ManifestStore again = reopen();

        assertEquals(1, again.corruptOnLoad());
        assertEquals(List.of("a", "c"), names(again.list("", 10)));
    }

    @Test
    void open_blockWithValidChecksumButNotAManifest_isCountedAndSkipped() throws IOException {
        byte[] junk = "not a manifest at all".getBytes(StandardCharsets.UTF_8);
        storage.put(ManifestStore.idOf("junk"), junk, Checksums.crc32c(junk));
        saveAll("ok");

        ManifestStore again = reopen();

        assertEquals(1, again.corruptOnLoad());
        assertEquals(List.of("ok"), names(again.list("", 10)));
    }

    @Test
    void open_dataBlocksBesideManifests_areIgnored() throws IOException {
        byte[] data = {1, 2, 3};
        storage.put(BlockId.ofFileBlock("f1", 0), data, Checksums.crc32c(data));
        saveAll("x");

        ManifestStore again = reopen();

        assertEquals(0, again.corruptOnLoad());
        assertEquals(1, again.size());
    }

    @Test
    void open_memoryStorageWithCorruptedManifest_isCountedAndSkipped() throws IOException {
        MemoryBlockStorage mem = new MemoryBlockStorage();
        ManifestStore s = new ManifestStore(mem);
        s.save(Manifests.of("a", 1, 1));
        s.save(Manifests.of("b", 1, 1));
        mem.corrupt(ManifestStore.idOf("a"));

        ManifestStore again = new ManifestStore(mem);

        assertEquals(1, again.corruptOnLoad());
        assertEquals(List.of("b"), names(again.list("", 10)));
    }

    @Test
    void idOf_anyValidName_isAValidBlockId() {
        assertEquals("m-61", ManifestStore.idOf("a").value());
        assertTrue(ManifestStore.idOf("\uD83D\uDE00".repeat(25)).value().length() <= 240);
        assertTrue(ManifestStore.idOf("/".repeat(100)).value().startsWith("m-2f2f"));
    }
}

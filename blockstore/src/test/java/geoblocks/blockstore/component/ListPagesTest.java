package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.ClientOp.ListPart;
import geoblocks.blockstore.wire.ClientOp.ListReq;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/** The node's side of listing: one page per request, by prefix and after, bounded by count and bytes. */
class ListPagesTest {
    static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9999);
    /** Largest frame Kompics' Netty decoder accepts (see ../shared/KOMPICS.md). */
    static final int FRAME = 65_532;
    static final NetHeader WIDE = new NetHeader(NetAddress.of("::1", 65535), NetAddress.of("fe80::1", 65535),
            Transport.TCP);

    private final FakeNode node = new FakeNode();
    private final ClientRequests requests = new ClientRequests(node, null, null, null, null, null);
    private long clock = 1;

    private void store(String name, Map<String, String> meta) throws Exception {
        Manifest m = new Manifest(name, "f" + clock, 1, 1, "local", "seoul", 1_700_000_000_000L + clock,
                List.of(new Manifest.BlockRef(1, 7, List.of("seoul"))), new Version(clock, "seoul"), 0, false, meta);
        clock++;
        node.manifests().save(m);
    }

    private void delete(String name) throws Exception {
        node.manifests().save(new Manifest(name, "t" + clock, 0, 1, "local", "seoul", 1_700_000_000_000L + clock,
                List.of(), new Version(clock, "seoul"), 0, true, Map.of()));
        clock++;
    }

    private ListPart ask(String prefix, String after, int limit) {
        node.sent.clear();
        requests.onList(CLIENT, new ListReq(7, prefix, after, limit));
        assertEquals(1, node.sent.size(), "one reply per request");
        return (ListPart) node.sent.get(0)[1];
    }

    private ListPart askWithDeleted(String prefix, String after, int limit) {
        node.sent.clear();
        requests.onList(CLIENT, new ListReq(7, prefix, after, limit, true));
        assertEquals(1, node.sent.size(), "one reply per request");
        return (ListPart) node.sent.get(0)[1];
    }

    @Test
    void withDeleted_namesWhoseHeadIsATombstoneAreListedToo_withoutMetadata() throws Exception {
        for (String n : List.of("a/1", "a/2", "a/3", "b/1")) {
            store(n, Map.of("etag", "e-" + n));
        }
        delete("a/2");
        ListPart all = askWithDeleted("a/", "", 100);
        assertEquals(List.of("a/1", "a/2", "a/3"), names(all));
        assertEquals(Map.of(), all.entries().get(1).meta());
        assertEquals(Map.of("etag", "e-a/3"), all.entries().get(2).meta());
        ListPart first = askWithDeleted("a/", "", 2);
        assertEquals(List.of("a/1", "a/2"), names(first));
        assertTrue(first.more());
        assertEquals(List.of("a/3"), names(askWithDeleted("a/", "a/2", 2)));
        assertEquals(List.of("a/1", "a/3"), names(ask("a/", "", 100)), "without the flag only live names");
    }

    private static List<String> names(ListPart p) {
        return p.entries().stream().map(ListEntry::name).toList();
    }

    @Test
    void prefixAndAfter_serveOnlyThatRange_inByteOrder() throws Exception {
        for (String n : List.of("a/1", "a/2", "a/b/3", "a0", "b/x", "c", "a/\uE000", "a/\uD83D\uDE00")) {
            store(n, Map.of());
        }
        delete("a/2");
        ListPart all = ask("a/", "", 100);
        // UTF-8 byte order: U+E000 (EE 80 80) sorts before U+1F600 (F0 9F 98 80), unlike UTF-16 order
        assertEquals(List.of("a/1", "a/b/3", "a/\uE000", "a/\uD83D\uDE00"), names(all), "tombstones are not listed");
        assertFalse(all.more());
        ListPart first = ask("a/", "", 2);
        assertEquals(List.of("a/1", "a/b/3"), names(first));
        assertTrue(first.more());
        ListPart rest = ask("a/", "a/b/3", 2);
        assertEquals(List.of("a/\uE000", "a/\uD83D\uDE00"), names(rest));
        assertFalse(rest.more());
        assertEquals(List.of("b/x", "c"), names(ask("", "a0", 10)));
        assertEquals(List.of("a/1"), names(ask("a/", "", 0)), "a limit below 1 asks for one");
        assertEquals(List.of(), names(ask("zzz", "", 10)));
        assertEquals(List.of(), names(ask("a/", "a/\uDBFF\uDFFF", 10)), "after every name of the prefix");
    }

    @Test
    void pagesOfLongestNames_stayBelowTheFrame_andVisitEveryNameOnce() throws Exception {
        String meta = "m".repeat(Manifest.MAX_META_BYTES - 4);
        List<String> want = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String head = String.format("bucket/%04d-", i);
            String name = head + "k".repeat(Manifest.MAX_NAME_BYTES - head.length());
            store(name, Map.of("etag", meta));
            want.add(name);
        }
        List<String> seen = new ArrayList<>();
        String after = "";
        int pages = 0;
        while (true) {
            ListPart p = ask("bucket/", after, 1000);
            int size = FileCodec.INSTANCE.encodedSize(new FileMsg(WIDE, p));
            assertTrue(size <= FRAME, "page of " + p.entries().size() + " entries takes " + size + " bytes");
            assertTrue(p.entries().size() < 300, "the byte bound cut the page");
            seen.addAll(names(p));
            pages++;
            if (!p.more()) {
                break;
            }
            assertFalse(p.entries().isEmpty(), "a page that says more is not empty");
            after = p.entries().get(p.entries().size() - 1).name();
        }
        assertEquals(want, seen);
        assertTrue(pages > 1 && pages < 20, pages + " pages");
    }

    @Test
    void countsAroundTheStoreChunks_areExact() throws Exception {
        for (int i = 0; i < 2 * ClientRequests.LIST_CHUNK + 1; i++) {
            store(String.format("n/%04d", i), Map.of());
        }
        store("o", Map.of());
        int chunk = ClientRequests.LIST_CHUNK;
        for (int limit : new int[] {chunk - 1, chunk, chunk + 1, 2 * chunk, 2 * chunk + 1, 1000}) {
            ListPart p = ask("n/", "", limit);
            int want = Math.min(limit, 2 * chunk + 1);
            assertEquals(want, p.entries().size(), "limit " + limit);
            assertEquals(want < 2 * chunk + 1, p.more(), "limit " + limit);
            assertEquals(String.format("n/%04d", want - 1), p.entries().get(want - 1).name());
        }
        ListPart tail = ask("n/", String.format("n/%04d", chunk), 1000);
        assertEquals(chunk, tail.entries().size());
        assertFalse(tail.more());
    }
}

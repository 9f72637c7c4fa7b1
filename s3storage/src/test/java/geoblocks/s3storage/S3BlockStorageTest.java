package geoblocks.s3storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.BlockStorageContract;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.CorruptBlockException;
import geoblocks.blockstore.core.StoredBlocks;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage contract against a real S3 server (SeaweedFS, started here on loopback), each test
 * under a key prefix of its own in one bucket; plus what only a remote store suffers: refused
 * credentials, an endpoint nobody answers on, a missing bucket, an object changed behind its back.
 */
class S3BlockStorageTest extends BlockStorageContract {
    static final String BUCKET = "geoblocks-contract";
    @TempDir
    static Path work;
    static WeedServer weed;
    static S3Client admin;
    static int prefixes;
    final List<S3BlockStorage> opened = new ArrayList<>();
    String prefix;

    @BeforeAll
    static void startWeed() throws Exception {
        weed = WeedServer.start(work);
        admin = S3Client.builder().endpointOverride(weed.endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(WeedServer.ACCESS_KEY, WeedServer.SECRET_KEY)))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
        admin.createBucket(b -> b.bucket(BUCKET));
    }

    @AfterAll
    static void stopWeed() {
        if (admin != null) {
            admin.close();
        }
        if (weed != null) {
            weed.close();
        }
    }

    @AfterEach
    void closeStores() {
        opened.forEach(S3BlockStorage::close);
    }

    @Override
    protected BlockStorage newStore() throws IOException {
        prefix = "t" + (++prefixes) + "/";
        return open(weed.settings(BUCKET, prefix));
    }

    S3BlockStorage open(S3StorageSettings s) throws IOException {
        S3BlockStorage store = S3BlockStorage.open(s, System::currentTimeMillis);
        opened.add(store);
        return store;
    }

    @Test
    void reopened_countsTheBlocksAlreadyInTheBucket() throws IOException {
        put(store, A, randomBytes(1, 1000));
        put(store, B, randomBytes(2, 24));
        S3BlockStorage again = open(weed.settings(BUCKET, prefix));
        assertEquals(new StoredBlocks(2, 1024), again.stored());
        assertArrayEquals(randomBytes(2, 24), again.get(B).data());
    }

    @Test
    void anObjectChangedBehindTheStoresBack_readsAsCorrupt() throws IOException {
        byte[] data = randomBytes(3, 100);
        put(store, A, data);
        String key = ((S3BlockStorage) store).key(A);
        byte[] bad = data.clone();
        bad[7] ^= 1;
        admin.putObject(p -> p.bucket(BUCKET).key(key).metadata(Map.of(S3BlockStorage.CRC, Checksums.hex(Checksums.crc32c(data)))),
                RequestBody.fromBytes(bad));
        CorruptBlockException e = assertThrows(CorruptBlockException.class, () -> store.get(A));
        assertTrue(e.getMessage().contains("data checksum"), e.getMessage());
        admin.putObject(p -> p.bucket(BUCKET).key(key), RequestBody.fromBytes(data));
        e = assertThrows(CorruptBlockException.class, () -> store.get(A));
        assertTrue(e.getMessage().contains("no valid " + S3BlockStorage.CRC), e.getMessage());
    }

    /**
     * Two regions given the same bucket and prefix would collect each other's blocks (each one's GC lists the
     * other's as unreferenced): the first to open claims the prefix, the second is refused naming the first,
     * and the first opens again; another prefix in the same bucket is another region's.
     */
    @Test
    void aPrefixAnotherRegionClaimed_isRefusedNamingIt() throws IOException {
        S3StorageSettings shared = weed.settings(BUCKET, "shared-" + prefix);
        S3BlockStorage seoul = S3BlockStorage.open(shared, System::currentTimeMillis, "seoul");
        opened.add(seoul);
        put(seoul, A, randomBytes(4, 100));
        IOException e = assertThrows(IOException.class, () -> S3BlockStorage.open(shared, System::currentTimeMillis, "dublin"));
        assertTrue(e.getMessage().contains("holds region seoul's blocks") && e.getMessage().contains("region dublin"),
                e.getMessage());
        opened.add(S3BlockStorage.open(shared, System::currentTimeMillis, "seoul"));
        opened.add(S3BlockStorage.open(weed.settings(BUCKET, "other-" + prefix), System::currentTimeMillis, "dublin"));
        assertArrayEquals(randomBytes(4, 100), seoul.get(A).data(), "seoul's block is still there");
    }

    @Test
    void badCredentials_failToOpenSayingWhat_withoutTheSecret() {
        S3StorageSettings wrong = new S3StorageSettings(weed.endpoint, BUCKET, "", "us-east-1", WeedServer.ACCESS_KEY,
                "not-the-secret", 0);
        IOException e = assertThrows(IOException.class, () -> open(wrong));
        assertTrue(e.getMessage().startsWith("opening bucket " + BUCKET + " in s3 " + weed.endpoint), e.getMessage());
        assertTrue(e.getMessage().contains("S3 answered 403"), e.getMessage());
        assertTrue(!e.getMessage().contains("not-the-secret"), e.getMessage());
    }

    @Test
    void missingBucket_failsToOpen() {
        IOException e = assertThrows(IOException.class, () -> open(weed.settings("no-such-bucket", "")));
        assertTrue(e.getMessage().contains("S3 answered 404"), e.getMessage());
    }

    @Test
    void unreachableEndpoint_failsToOpenNamingIt() throws IOException {
        int port = WeedServer.freePorts(1)[0];
        S3StorageSettings nobody = new S3StorageSettings(URI.create("http://127.0.0.1:" + port), BUCKET, "", "us-east-1",
                "k", "s", 0);
        IOException e = assertThrows(IOException.class, () -> open(nobody));
        assertTrue(e.getMessage().startsWith("opening bucket " + BUCKET + " in s3 http://127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void capacity_refusesAWriteBeyondIt_asDiskFull() throws IOException {
        S3BlockStorage small = open(new S3StorageSettings(weed.endpoint, BUCKET, "cap" + (++prefixes) + "/", "us-east-1",
                WeedServer.ACCESS_KEY, WeedServer.SECRET_KEY, 1000));
        put(small, A, randomBytes(1, 600));
        IOException e = assertThrows(IOException.class, () -> put(small, B, randomBytes(2, 600)));
        assertTrue(e.getMessage().startsWith("disk full: "), e.getMessage());
        put(small, A, randomBytes(3, 900)); // a replacement counts what it frees
        assertEquals(100, small.space().freeBytes());
        assertEquals(List.of(A), small.list());
        assertEquals(BlockId.of("a"), A);
    }
}

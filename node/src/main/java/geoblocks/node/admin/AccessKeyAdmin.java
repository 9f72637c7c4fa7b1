package geoblocks.node.admin;

import geoblocks.net.FileGrant;
import geoblocks.node.http.JsonWriter;
import geoblocks.node.s3.auth.AccessKeys;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API's routes for the S3 gateway's access keys ({@link AccessKeys}: records every region
 * receives, each secret sealed under the cluster secret): list, create (the secret is in that answer only)
 * and revoke. Scope {@code keys}.
 */
final class AccessKeyAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(AccessKeyAdmin.class);
    static final int MAX_RECORD = 1024;
    private final AdminBackend backend;
    private final AccessKeys keys;
    private final LongSupplier clock;
    private final SecureRandom random;

    AccessKeyAdmin(AdminBackend backend, AccessKeys keys, LongSupplier clockMillis, SecureRandom random) {
        this.backend = backend;
        this.keys = keys;
        this.clock = clockMillis;
        this.random = random;
    }

    CompletableFuture<AdminApi.Answer> list(AdminApi.Call c) {
        return backend.list(AccessKeys.PREFIX).thenCompose(names -> {
            List<CompletableFuture<AccessKeys.Key>> reads = new ArrayList<>();
            for (String n : names) {
                String id = n.substring(AccessKeys.PREFIX.length());
                if (AccessKeys.validId(id)) {
                    reads.add(read(id));
                }
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(x -> {
                JsonWriter w = new JsonWriter().begin().name("keys").beginArray();
                for (CompletableFuture<AccessKeys.Key> r : reads) {
                    if (r.join() != null) {
                        describe(w.begin(), r.join()).end();
                    }
                }
                return new AdminApi.Answer(200, w.endArray().end().toString());
            });
        });
    }

    CompletableFuture<AdminApi.Answer> create(AdminApi.Call c) {
        String name = AdminApi.string(c.body(), "name", true);
        String problem = AccessKeys.nameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        AccessKeys.Created k = keys.create(name, files(c.body()), clock.getAsLong(), random);
        LOG.info("admin: {} creates S3 access key {} ({}), files {}", c.who(), k.key().id(), name,
                k.key().files().isEmpty() ? "none" : FileGrant.format(k.key().files()));
        return backend.write(AccessKeys.file(k.key().id()), k.key().encode(), false).thenApply(x ->
                new AdminApi.Answer(201, describe(new JsonWriter().begin(), k.key()).field("secret", k.secret()).end()
                        .toString()));
    }

    CompletableFuture<AdminApi.Answer> revoke(AdminApi.Call c) {
        String id = c.rest();
        if (!AccessKeys.validId(id)) {
            throw new IllegalArgumentException("'" + id + "' is not an access key id made by `key create` (GB and 18 more)");
        }
        return read(id).thenCompose(k -> {
            if (k == null) {
                return AdminApi.done(AdminApi.Answer.error(404, "NoSuchKey", "no access key " + id));
            }
            if (k.revoked()) {
                return AdminApi.done(new AdminApi.Answer(200, describe(new JsonWriter().begin(), k).end().toString()));
            }
            AccessKeys.Key revoked = k.revoke(clock.getAsLong());
            LOG.info("admin: {} revokes S3 access key {} ({})", c.who(), id, k.name());
            return backend.write(AccessKeys.file(id), revoked.encode(), false).thenApply(x ->
                    new AdminApi.Answer(200, describe(new JsonWriter().begin(), revoked).end().toString()));
        });
    }

    /** The file grants of a create's body: {@code "files": ["PREFIX:r|w|rw", ...]}, none when absent. */
    private static List<FileGrant> files(Map<String, Object> body) {
        Object v = body.get("files");
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw new IllegalArgumentException("'files' must be an array of strings PREFIX:r, PREFIX:w or PREFIX:rw");
        }
        List<FileGrant> out = new ArrayList<>();
        for (Object o : l) {
            if (!(o instanceof String s)) {
                throw new IllegalArgumentException("'files' must hold strings only");
            }
            out.add(FileGrant.parse(s));
        }
        return out;
    }

    /** The record of key {@code id}, or null when there is none or it cannot be read as one. */
    private CompletableFuture<AccessKeys.Key> read(String id) {
        return backend.read(AccessKeys.file(id), MAX_RECORD).thenApply(bytes -> {
            if (bytes == null) {
                return null;
            }
            try {
                return AccessKeys.Key.decode(id, bytes);
            } catch (IOException e) {
                return null;
            }
        });
    }

    private static JsonWriter describe(JsonWriter w, AccessKeys.Key k) {
        w.field("id", k.id()).field("name", k.name()).field("created", Instant.ofEpochMilli(k.createdMillis()).toString())
                .field("revoked", k.revoked() ? Instant.ofEpochMilli(k.revokedMillis()).toString() : null)
                .name("files").beginArray();
        for (FileGrant g : k.files()) {
            w.value(g.toString());
        }
        return w.endArray();
    }
}

package geoblocks.app.cli;

import geoblocks.app.AppConfig;
import geoblocks.app.GeoClient;
import geoblocks.app.s3.AccessKeys;
import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code client --at REGION key create NAME | list | revoke KEYID}: the S3 gateway's access keys
 * ({@link AccessKeys}), stored as small records that every region receives. The secret is printed once,
 * at create; the record holds it sealed under the cluster secret of the config.
 */
@Command(name = "key", mixinStandardHelpOptions = true,
        description = "Create, list and revoke S3 access keys (replicated to every region).",
        subcommands = {KeyCommand.Create.class, KeyCommand.ListKeys.class, KeyCommand.Revoke.class})
final class KeyCommand implements Runnable {
    @ParentCommand ClientCommand parent;
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing command: create, list or revoke");
    }

    static AccessKeys keys(ClientCommand parent) {
        return new AccessKeys(AppConfig.load(parent.config).secret());
    }

    static AccessKeys.Key read(GeoClient c, String at, String id) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        c.get(at, AccessKeys.file(id), new ByteSink() {
            @Override
            public void begin() {
                bytes.reset();
            }

            @Override
            public void write(long offset, byte[] data) {
                bytes.write(data, 0, data.length);
            }
        });
        return AccessKeys.Key.decode(id, bytes.toByteArray());
    }

    static void write(GeoClient c, String at, AccessKeys.Key k, boolean create) throws IOException {
        byte[] rec = k.encode();
        c.write(at, null, new Bytes(rec), AccessKeys.file(k.id()), "tworandom", 4096, "all", create, null);
    }

    record Bytes(byte[] b) implements geoblocks.blockstore.client.ByteSource {
        @Override
        public long size() {
            return b.length;
        }

        @Override
        public void read(long offset, java.nio.ByteBuffer dst) {
            dst.put(b, (int) offset, dst.remaining());
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create an access key; prints its id and secret (the secret is shown only this once).")
    static final class Create implements Callable<Integer> {
        @ParentCommand KeyCommand key;
        @Parameters(paramLabel = "NAME", description = "A name for the key (1..64 of A-Z a-z 0-9 . _ @ + = -); its display name in ACLs.")
        String name;
        @Option(names = "--json", description = "Print {\"id\":…,\"name\":…,\"secret\":…} for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            String problem = AccessKeys.nameProblem(name);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            AccessKeys.Created k = keys(key.parent).create(name, System.currentTimeMillis(), new SecureRandom());
            try (GeoClient c = key.parent.open()) {
                write(c, key.parent.at, k.key(), true);
            }
            if (json) {
                System.out.println("{\"id\":\"" + k.key().id() + "\",\"name\":\"" + name + "\",\"secret\":\"" + k.secret() + "\"}");
            } else {
                System.out.println("access key id:     " + k.key().id());
                System.out.println("secret access key: " + k.secret());
                System.out.println("name:              " + name);
                System.out.println("(the secret is shown only now; it is stored encrypted under the cluster secret)");
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the access keys (never their secrets).")
    static final class ListKeys implements Callable<Integer> {
        @ParentCommand KeyCommand key;

        @Override
        public Integer call() throws Exception {
            try (GeoClient c = key.parent.open()) {
                List<String> ids = new ArrayList<>();
                String after = "";
                while (true) {
                    ClientPort.Listing page = c.listPage(key.parent.at, AccessKeys.PREFIX, after, 1000);
                    for (ListEntry e : page.entries()) {
                        ids.add(e.name().substring(AccessKeys.PREFIX.length()));
                        after = e.name();
                    }
                    if (!page.more() || page.entries().isEmpty()) {
                        break;
                    }
                }
                System.out.printf("%-20s %-24s %-24s %s%n", "KEY ID", "NAME", "CREATED", "STATE");
                for (String id : ids) {
                    AccessKeys.Key k = read(c, key.parent.at, id);
                    System.out.printf("%-20s %-24s %-24s %s%n", k.id(), k.name(), Instant.ofEpochMilli(k.createdMillis()),
                            k.revoked() ? "revoked " + Instant.ofEpochMilli(k.revokedMillis()) : "active");
                }
                System.out.println(ids.size() + " key(s)");
            }
            return 0;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke an access key: every node refuses it once the revocation reached it (and its 5 s cache expired).")
    static final class Revoke implements Callable<Integer> {
        @ParentCommand KeyCommand key;
        @Parameters(paramLabel = "KEYID") String id;

        @Override
        public Integer call() throws Exception {
            if (!AccessKeys.validId(id)) {
                throw new IllegalArgumentException("'" + id + "' is not an access key id made by `key create` (GB and 18 more)");
            }
            try (GeoClient c = key.parent.open()) {
                AccessKeys.Key k = read(c, key.parent.at, id);
                if (k.revoked()) {
                    System.out.println("key " + id + " (" + k.name() + ") was already revoked at " + Instant.ofEpochMilli(k.revokedMillis()));
                    return 0;
                }
                write(c, key.parent.at, k.revoke(System.currentTimeMillis()), false);
                System.out.println("revoked key " + id + " (" + k.name() + ")");
            }
            return 0;
        }
    }
}

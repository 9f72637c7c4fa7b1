package geoblocks.node.cli;

import geoblocks.net.FileGrant;
import geoblocks.node.http.JsonWriter;
import geoblocks.node.s3.MiniJson;
import geoblocks.node.s3.auth.AccessKeys;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code client --at REGION key create NAME | list | revoke KEYID}: the S3 gateway's access keys
 * ({@link AccessKeys}), stored as small records that every region receives, managed through the node's admin
 * API with a token of scope {@code keys}. The secret is printed once, at create; the record holds it sealed
 * under the cluster secret.
 */
@Command(name = "key", mixinStandardHelpOptions = true,
        description = "Create, list and revoke S3 access keys (replicated to every region; through the admin API).",
        subcommands = {KeyCommand.Create.class, KeyCommand.ListKeys.class, KeyCommand.Revoke.class})
final class KeyCommand implements Runnable {
    @ParentCommand ClientCommand parent;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: create, list or revoke");
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create an access key; prints its id and secret (the secret is shown only this once).")
    static final class Create implements Callable<Integer> {
        @ParentCommand KeyCommand key;
        @Parameters(paramLabel = "NAME", description = "A name for the key (1..64 of A-Z a-z 0-9 . _ @ + = -); its display name in ACLs.")
        String name;
        @Option(names = "--files", paramLabel = "PREFIX:r|w|rw", split = ",",
                description = "What a file-protocol client by this key may read (r) and write (w): the names starting with"
                        + " PREFIX; repeat or separate by commas. None by default (S3 only). Names the S3 gateway keeps"
                        + " (dotted names, bucket/key) are never reachable by file name, whatever the grant.")
        List<String> files = List.of();
        @Option(names = "--json", description = "Print {\"id\":…,\"name\":…,\"secret\":…} for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            String problem = AccessKeys.nameProblem(name);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            JsonWriter body = new JsonWriter().begin().field("name", name).name("files").beginArray();
            for (FileGrant g : FileGrant.parseAll(String.join(",", files))) {
                body.value(g.toString());
            }
            Map<?, ?> k = (Map<?, ?>) MiniJson.parse(key.parent.admin().call("POST", "/keys",
                    body.endArray().end().toString()));
            if (json) {
                System.out.println(new JsonWriter().begin().field("id", (String) k.get("id")).field("name", name)
                        .field("secret", (String) k.get("secret")).end());
            } else {
                System.out.println("access key id:     " + k.get("id"));
                System.out.println("secret access key: " + k.get("secret"));
                System.out.println("name:              " + name);
                System.out.println("files:             " + (files.isEmpty() ? "none (S3 only)" : String.join(",", files)));
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
            List<?> keys = (List<?>) ((Map<?, ?>) MiniJson.parse(key.parent.admin().call("GET", "/keys", null))).get("keys");
            System.out.printf("%-20s %-24s %-24s %-10s %s%n", "KEY ID", "NAME", "CREATED", "STATE", "FILES");
            for (Object o : keys) {
                Map<?, ?> k = (Map<?, ?>) o;
                Object files = k.get("files");
                System.out.printf("%-20s %-24s %-24s %-10s %s%n", k.get("id"), k.get("name"), k.get("created"),
                        k.get("revoked") != null ? "revoked " + k.get("revoked") : "active",
                        files instanceof List<?> l && !l.isEmpty() ? String.join(",", l.stream().map(String::valueOf).toList())
                                : "-");
            }
            System.out.println(keys.size() + " key(s)");
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
            Map<?, ?> k = (Map<?, ?>) MiniJson.parse(key.parent.admin().call("DELETE", "/keys/" + id, null));
            System.out.println("revoked key " + id + " (" + k.get("name") + ")");
            return 0;
        }
    }
}

package geoblocks.node.cli;

import geoblocks.node.http.JsonWriter;
import geoblocks.node.s3.MiniJson;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code client --at REGION token create NAME --scope S[,S] --expires 30d | list | revoke ID}: the admin
 * API's tokens (scoped, with an expiry, kept as records every region receives), through the node's admin
 * API with a token that has the {@code tokens} scope (the root token has every scope).
 */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Create, list and revoke admin tokens (scoped, with an expiry; replicated to every region).",
        subcommands = {TokenCommand.Create.class, TokenCommand.ListTokens.class, TokenCommand.Revoke.class})
final class TokenCommand implements Runnable {
    @ParentCommand ClientCommand parent;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: create, list or revoke");
    }

    /** Seconds in {@code text}: a whole number with s, m, h or d ("30d", "12h"). */
    static long seconds(String text) {
        Matcher m = Pattern.compile("(\\d{1,9})([smhd])").matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("--expires takes a number and s, m, h or d (e.g. 30d, 12h), was '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return n * switch (m.group(2)) {
            case "s" -> 1L;
            case "m" -> 60L;
            case "h" -> 3600L;
            default -> 86_400L;
        };
    }

    static String line(Map<?, ?> t) {
        return String.format("%-16s  %-20s  %-20s  expires %s%s", t.get("id"), t.get("name"),
                String.join(",", ((List<?>) t.get("scopes")).stream().map(String::valueOf).toList()), t.get("expires"),
                t.get("revoked") == null ? "" : "  revoked " + t.get("revoked"));
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Make a token; its secret is printed once (stdout), nowhere else.")
    static final class Create implements Callable<Integer> {
        @ParentCommand TokenCommand parent;
        @Parameters(paramLabel = "NAME", description = "A name for people: 1-64 of A-Z a-z 0-9 . _ @ + = -") String name;
        @Option(names = "--scope", required = true, split = ",", paramLabel = "SCOPE[,SCOPE...]",
                description = "cluster (layout), data (move, purge), tokens (these commands), keys (S3 access keys).")
        List<String> scopes;
        @Option(names = "--expires", defaultValue = "30d", paramLabel = "DURATION",
                description = "How long it lives, 1m to 366d (default: ${DEFAULT-VALUE}).")
        String expires;

        @Override
        public Integer call() throws Exception {
            JsonWriter w = new JsonWriter().begin().field("name", name).name("scopes").beginArray();
            scopes.forEach(w::value);
            String body = w.endArray().field("ttlSeconds", seconds(expires)).end().toString();
            Map<?, ?> t = (Map<?, ?>) MiniJson.parse(parent.parent.admin().call("POST", "/tokens", body));
            System.err.println("admin token " + t.get("id") + " (" + t.get("name") + "), scopes " + t.get("scopes")
                    + ", expires " + t.get("expires") + "; the token (shown only now):");
            System.out.println(t.get("token"));
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the tokens (never their secrets).")
    static final class ListTokens implements Callable<Integer> {
        @ParentCommand TokenCommand parent;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            String answer = parent.parent.admin().call("GET", "/tokens", null);
            if (json) {
                System.out.println(answer);
                return 0;
            }
            for (Object t : (List<?>) ((Map<?, ?>) MiniJson.parse(answer)).get("tokens")) {
                System.out.println(line((Map<?, ?>) t));
            }
            return 0;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke a token: refused at this node at once, at the others within 5 s of the record reaching them.")
    static final class Revoke implements Callable<Integer> {
        @ParentCommand TokenCommand parent;
        @Parameters(paramLabel = "ID") String id;

        @Override
        public Integer call() throws Exception {
            Map<?, ?> t = (Map<?, ?>) MiniJson.parse(parent.parent.admin().call("DELETE", "/tokens/" + id, null));
            System.out.println("revoked " + line(t));
            return 0;
        }
    }
}

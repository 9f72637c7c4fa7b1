package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.BuildVersion;
import geoblocks.node.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Usage errors: one {@code error:} line naming the problem and the command's --help, exit 2 (docs/usage.md). */
class MainTest {
    private record Run(int exit, String err) {}

    private static Run run(String... args) {
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return new Run(Main.run(args), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(before);
        }
    }

    private static void assertOneErrorLine(Run r, String mentions, String help) {
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        String[] lines = r.err().strip().split("\\R");
        assertEquals(1, lines.length, "one line: " + r.err());
        assertTrue(lines[0].startsWith("error: "), lines[0]);
        assertTrue(lines[0].contains(mentions), lines[0]);
        assertTrue(lines[0].endsWith("(see " + help + " --help)"), lines[0]);
    }

    @Test
    void unknownCommand_isOneErrorLine_exit2() {
        assertOneErrorLine(run("nosuch"), "nosuch", "node.jar");
    }

    @Test
    void missingRequiredOption_isOneErrorLine_exit2() {
        assertOneErrorLine(run("client", "status"), "--at", "node.jar client");
    }

    @Test
    void missingSubcommand_isOneErrorLine_exit2() {
        assertOneErrorLine(run("client", "--at", "seoul"), "missing command", "node.jar client");
    }

    /** --version names the build: the project's version and the commit the build came from (issue 45). */
    @Test
    void version_namesTheVersionAndTheCommit() {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.run("--version");
        } finally {
            System.setOut(before);
        }
        assertEquals(0, exit);
        String v = out.toString(StandardCharsets.UTF_8).strip();
        assertTrue(v.matches("geoblocks \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{12}|unknown)\\)"), v);
        assertEquals(v, BuildVersion.describe());
    }
}

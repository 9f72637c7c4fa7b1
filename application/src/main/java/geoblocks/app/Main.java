package geoblocks.app;

/** Entry point of node.jar (placeholder until the CLI lands). */
public final class Main {
    public static void main(String[] args) {
        System.out.println("geoblocks");
    }
}

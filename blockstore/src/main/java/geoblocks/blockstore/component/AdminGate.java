package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOps;
import geoblocks.net.NetAddress;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which client requests only admin clients may send, and who they are: the admin operations
 * ({@link FileOps#isAdmin}), and any read or write of a name under one of {@code prefixes} (where the
 * node's own gateway keeps its secrets: admin token records, sealed S3 access keys). {@code clients} picks
 * the admin clients; production names its S3 gateway's in-process client only. {@code gateway} names every
 * name the gateway keeps (its objects too), which a client by access key never reaches ({@link KeyGate}).
 */
public record AdminGate(Predicate<NetAddress> clients, List<String> prefixes, GatewayNames gateway) {
    /** Nobody is an admin client, and no name is reserved (but the dotted ones, from keyed clients). */
    public static final AdminGate NOBODY = new AdminGate(client -> false, List.of());

    public AdminGate {
        prefixes = List.copyOf(prefixes);
    }

    public AdminGate(Predicate<NetAddress> clients, List<String> prefixes) {
        this(clients, prefixes, GatewayNames.DOTTED);
    }

    public AdminGate withClients(Predicate<NetAddress> which) {
        return new AdminGate(which, prefixes, gateway);
    }

    public AdminGate withPrefixes(List<String> reserved) {
        return new AdminGate(clients, reserved, gateway);
    }

    public AdminGate withGateway(GatewayNames names) {
        return new AdminGate(clients, prefixes, names);
    }

    /** Whether {@code from} may send {@code op}. */
    public boolean admits(NetAddress from, FileOp op) {
        return !needsAdmin(op) || clients.test(from);
    }

    /** Whether only an admin client may send {@code op}. */
    public boolean needsAdmin(FileOp op) {
        if (FileOps.isAdmin(op)) {
            return true;
        }
        String name = name(op);
        if (name == null) {
            return false;
        }
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** The name a client request reads or writes, or null for the others. */
    private static String name(FileOp op) {
        if (op instanceof ClientOp.PutBegin p) {
            return p.name();
        } else if (op instanceof ClientOp.DeleteReq d) {
            return d.name();
        } else if (op instanceof ClientOp.GetBegin g) {
            return g.name();
        } else if (op instanceof ClientOp.GetRead g) {
            return g.name();
        } else if (op instanceof ClientOp.GetRange g) {
            return g.name();
        } else if (op instanceof ClientOp.StatReq s) {
            return s.name();
        } else if (op instanceof ClientOp.VersionsReq v) {
            return v.name();
        }
        return null;
    }
}

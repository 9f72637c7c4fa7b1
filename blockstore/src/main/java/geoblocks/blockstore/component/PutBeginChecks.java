package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FailureException;

/**
 * What a node checks of a {@code PutBegin} before it admits the upload: the name and metadata, the policy,
 * the ack, the size and block size (and, apart, the blocks they make), and a write condition that the node can decide
 * or hand to the name's owner. A refusal is an IllegalArgumentException (INVALID) or a FailureException with
 * its code.
 */
final class PutBeginChecks {
    private PutBeginChecks() {}

    /** The canonical name of {@code b}'s policy, once {@code b} passed every check. */
    static String check(Node node, PutBegin b) {
        Manifest.validateName(b.name());
        Manifest.validateMeta(b.meta());
        String policy = node.policies().canonical(b.policy());
        if (!ClientOp.ACK_ALL.equals(b.ack()) && !ClientOp.ACK_LOCAL.equals(b.ack())) {
            throw new IllegalArgumentException("ack must be all or local, was '" + b.ack() + "'");
        }
        if (b.size() < 0) {
            throw new IllegalArgumentException("file size must be >= 0, was " + b.size());
        }
        int max = node.settings().maxBlockSize();
        if (b.blockSize() < 1 || b.blockSize() > max) {
            throw new IllegalArgumentException("block size must be in 1.." + max + " bytes, was " + b.blockSize());
        }
        if (!b.condition().none()) {
            String owner = node.ownerOf(b.name());
            if (b.condition().absentOnly() && node.manifests().find(b.name()).isPresent()) {
                throw new FailureException(FailureCode.EXISTS, CreateIfAbsent.exists(b.name(), owner));
            }
            if (!owner.equals(node.region()) && !node.rtt().isUp(owner)) {
                throw new FailureException(FailureCode.UNAVAILABLE, CreateIfAbsent.ownerDown(node, b.name(), owner,
                        b.condition()));
            }
        }
        return policy;
    }

    /** The blocks {@code b} makes: refused when more than a file may have. */
    static long blocks(Node node, PutBegin b) {
        long blocks = (b.size() + b.blockSize() - 1) / b.blockSize();
        if (blocks > node.settings().maxBlocksPerFile()) {
            throw new IllegalArgumentException(b.size() + " bytes in blocks of " + b.blockSize() + " would be "
                    + blocks + " blocks, more than " + node.settings().maxBlocksPerFile() + " per file: use larger blocks");
        }
        return blocks;
    }
}

package geoblocks.blockstore.component;

/**
 * The parts of a node's file service, once built: who the handler table ({@link RequestRoutes})
 * routes requests to and what the periodic tick ({@link Housekeeping}) runs.
 */
record NodeParts(Uploads uploads, Downloads downloads, ReplicaServer replicas,
        BackgroundTransfers background, Scrubber scrubber, Rereplicator rereplicator, Replicator replicator,
        Migrations migrations, BlockGc gc, AntiEntropy antiEntropy, ClientRequests requests,
        NetBench netBench) {}

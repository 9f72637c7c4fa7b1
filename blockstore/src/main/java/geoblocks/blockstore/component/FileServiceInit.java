package geoblocks.blockstore.component;

import geoblocks.blockstore.core.AdmissionSettings;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.ReplicationQueue;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.net.Bytes;
import geoblocks.net.ClusterConfig;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import se.sics.kompics.Init;

/**
 * What a {@link FileService} starts with: its address, region and cluster, its settings and
 * metadata store, the replication queue it resumes, and optionally the block collector's and
 * admission queue's settings and the names of the placement policies.
 */
public final class FileServiceInit extends Init<FileService> {
    final NetAddress self;
    final String region;
    final ClusterConfig cluster;
    final NodeSettings settings;
    final ManifestStore manifests;
    final long seed;
    final ReplicationQueueStore replicationQueue;
    /** The copies {@code replicationQueue} held at start, resumed by the replicator. */
    final List<ReplicationQueue.Copy> resumedCopies;
    /** Names and rules of the placement policies (the placement component has the policies). */
    PolicyCatalog policies = PolicySet.defaults().catalog();
    /** The block collector's grace and sweep interval. */
    GcSettings gc = GcSettings.DEFAULTS;
    /** How long and how many client requests wait for transfer memory. */
    AdmissionSettings admission = AdmissionSettings.DEFAULTS;
    /** What blocks read for clients are read into. */
    Function<NetAddress, Bytes.Allocator> sendBuffers = client -> Bytes.Allocator.HEAP;
    /** The layout the node acts on at start; null: none given (the node parent always gives the stored one). */
    Layout layout;
    /** The file protocol version agreed with each peer (nothing fills it unless set: the lowest version for all). */
    PeerVersions versions = new PeerVersions();
    /** The release line this node runs as (this build's, unless an upgrade test plays the previous release). */
    ClusterVersion release = ClusterVersion.BUILD;
    /** What this node names as its build in status ("0.3.0 (commit 1a2b3c4d5e6f)"). */
    String build = ClusterVersion.BUILD_VERSION;
    /** What the file service shares with the node's other components (its own unless the parent gives one). */
    NodeWide shared;
    /** The series of its request ids (the only issuer unless the parent gives one). */
    RequestIds ids = RequestIds.alone();

    /** This node running as release line {@code release}, which names itself {@code build} in status. */
    public FileServiceInit withRelease(ClusterVersion release, String build) {
        this.release = release;
        this.build = build;
        return this;
    }

    public FileServiceInit(NetAddress self, String region, ClusterConfig cluster, NodeSettings settings,
            ManifestStore manifests, long seed) {
        this(self, region, cluster, settings, manifests, seed, ReplicationQueueStore.inMemory(), List.of());
    }

    /** With the replication queue kept in {@code replicationQueue}, which held {@code resumedCopies} at start. */
    public FileServiceInit(NetAddress self, String region, ClusterConfig cluster, NodeSettings settings,
            ManifestStore manifests, long seed, ReplicationQueueStore replicationQueue,
            List<ReplicationQueue.Copy> resumedCopies) {
        this.replicationQueue = replicationQueue;
        this.resumedCopies = List.copyOf(resumedCopies);
        this.self = self;
        this.region = region;
        this.cluster = cluster;
        this.settings = settings;
        this.manifests = manifests;
        this.seed = seed;
        this.shared = new NodeWide(settings.memoryBudgetBytes());
    }

    /** This init sharing {@code shared} with the node's other components, issuing the request ids of {@code ids}. */
    FileServiceInit withShared(NodeWide shared, RequestIds ids) {
        this.shared = Objects.requireNonNull(shared, "shared");
        this.ids = Objects.requireNonNull(ids, "ids");
        return this;
    }

    /** This init with the block collector's settings. */
    public FileServiceInit withGc(GcSettings settings) {
        this.gc = settings;
        return this;
    }

    /** This init with the admission queue's settings. */
    public FileServiceInit withAdmission(AdmissionSettings settings) {
        this.admission = settings;
        return this;
    }

    /**
     * This init with the blocks it sends to a client read into {@code buffers.apply(client)} (default:
     * heap arrays).
     * Only a network that sends a {@code GetData}'s bytes and then releases them may be given pooled
     * buffers (GeoNetwork, with {@code geoblocks.network.PooledBytes.ALLOCATOR}).
     */
    public FileServiceInit withSendBuffers(Function<NetAddress, Bytes.Allocator> buffers) {
        this.sendBuffers = buffers;
        return this;
    }

    /** Writes messages to each peer at the file protocol version {@code versions} holds for it (see PeerVersions). */
    public FileServiceInit withVersions(PeerVersions versions) {
        this.versions = versions;
        return this;
    }

    /** This init acting on {@code initial} at start: the stored layout the membership component starts with. */
    public FileServiceInit withLayout(Layout initial) {
        this.layout = Objects.requireNonNull(initial, "initial");
        return this;
    }

    /** This init with the names and rules of the node's placement policies. */
    public FileServiceInit withPolicies(PolicyCatalog catalog) {
        this.policies = catalog;
        return this;
    }
}

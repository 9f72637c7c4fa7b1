package geoblocks.app;

import java.util.concurrent.ForkJoinPool;
import java.util.function.Predicate;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.support.hierarchical.ParallelExecutionConfiguration;
import org.junit.platform.engine.support.hierarchical.ParallelExecutionConfigurationStrategy;

/**
 * How many end-to-end test methods marked {@code @Execution(CONCURRENT)} run at once (the failsafe
 * configuration names this class; methods without the mark run one after the other, as before):
 * {@code geoblocks.it.parallelism} (default 4) threads and never more. JUnit's fixed strategy lets
 * its pool add threads while one waits (in a join, or for a lock), so more methods than that could
 * run at once on the 2 cores; here a thread that waits holds its place.
 */
public final class ItParallelism implements ParallelExecutionConfigurationStrategy {
    @Override
    public ParallelExecutionConfiguration createConfiguration(ConfigurationParameters parameters) {
        int n = parameters.get("geoblocks.it.parallelism", Integer::parseInt).orElse(4);
        if (n < 1) {
            throw new IllegalArgumentException("geoblocks.it.parallelism must be at least 1, was " + n);
        }
        return new ParallelExecutionConfiguration() {
            @Override
            public int getParallelism() {
                return n;
            }

            @Override
            public int getMinimumRunnable() {
                return 0;
            }

            @Override
            public int getMaxPoolSize() {
                return n;
            }

            @Override
            public int getCorePoolSize() {
                return n;
            }

            @Override
            public int getKeepAliveSeconds() {
                return 30;
            }

            @Override
            public Predicate<? super ForkJoinPool> getSaturatePredicate() {
                return pool -> true; // at the maximum: block in place rather than fail
            }
        };
    }
}

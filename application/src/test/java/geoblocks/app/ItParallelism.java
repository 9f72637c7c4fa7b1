package geoblocks.app;

import java.util.concurrent.ForkJoinPool;
import java.util.function.Predicate;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.support.hierarchical.ParallelExecutionConfiguration;
import org.junit.platform.engine.support.hierarchical.ParallelExecutionConfigurationStrategy;

/**
 * How many test methods of an end-to-end class marked {@code @Execution(CONCURRENT)} run at once
 * (the failsafe configuration names this class; classes without the mark run their methods one
 * after the other, as before). {@code geoblocks.it.parallelism} (default 4) threads and never more:
 * JUnit's fixed strategy lets its pool add a thread for each one blocked on a {@code @ResourceLock},
 * so a method that needs the cluster to itself would have every other method start at once the
 * moment it finished. Here a method waiting for a lock holds its thread, and at most this many run.
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

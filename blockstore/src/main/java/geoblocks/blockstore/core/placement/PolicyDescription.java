package geoblocks.blockstore.core.placement;

/**
 * One line of a node's rule set ({@code client policies}): a policy's name, its kind (seed,
 * built-in, declarative or custom), how many copies it places and what its rules are.
 */
public record PolicyDescription(String name, String kind, int copies, String rules) {}

package segtool.analyzers.repair;

/** Asked once per partition before anything changes; tests pass {@code plan -> true}. */
@FunctionalInterface
public interface Confirm {
    boolean approve(RepairPlan plan);
}

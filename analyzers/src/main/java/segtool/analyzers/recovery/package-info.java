/**
 * The server's boot recovery of a partition (RECOVERY.md), reproduced read-only, one file per pass and per check:
 *
 * <ul>
 *   <li>{@link segtool.analyzers.recovery.RecoveryEngine}: the entry points and the order of the passes (3-6);</li>
 *   <li>{@link segtool.analyzers.recovery.Sweep}: step 0, the directory sweep and the segment list (3);</li>
 *   <li>{@code PassA}: sizes and the decision steps A1-A7 (4.1-4.10), and the WAL-checkpoint segment (9);</li>
 *   <li>{@link segtool.analyzers.recovery.ChainGuard}: pass B and anchor admission (5);</li>
 *   <li>{@code PassCPlan}: the file operations of pass C, planned and never performed (6);</li>
 *   <li>{@link segtool.analyzers.recovery.SegmentLog}: the primitives HeaderAt, Verify and Matches (2.3);</li>
 *   <li>{@code Walks}: the anchored walk W (4.5) and the rebuild walk R (4.6);</li>
 *   <li>{@code Probe}: the damage probe (4.7); {@link segtool.analyzers.recovery.AnchorSearch}: AS() (4.8);</li>
 *   <li>{@link segtool.analyzers.recovery.IndexScan}: the index consistency scan (4.2);</li>
 *   <li>{@link segtool.analyzers.recovery.Budget}: the shared work budget (2.4);</li>
 *   <li>{@link segtool.analyzers.recovery.RecoveryOptions}: the tool's parameters (13.1).</li>
 * </ul>
 *
 * The passes write the report ({@link segtool.analyzers.recovery.PartitionReport},
 * {@link segtool.analyzers.recovery.SegmentReport}); the checks below them return values. Nothing here writes.
 */
package segtool.analyzers.recovery;

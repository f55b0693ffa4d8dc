package segtool.analyzers.inspect;

import segtool.formats.log.Defect;

/**
 * Whether an index entry describes the batch at its position, as the engine's Matches(o, t, p) decides and words it
 * ({@code mismatch} null when it holds), and, when asked, whether that batch verifies ({@code defect}).
 */
public record IndexMapping(String mismatch, Defect defect, boolean verified) {
    public boolean matches() {
        return mismatch == null;
    }

    public String describe() {
        if (mismatch != null) {
            return "no: " + mismatch;
        }
        if (!verified) {
            return "yes (header)";
        }
        return defect == null ? "yes, verifies" : "header yes, record does not verify: " + defect.describe();
    }
}

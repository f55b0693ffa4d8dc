package segtool.analyzers.archive;

import java.util.List;

/** What the archive's manifest says about the extracted files. */
public sealed interface ManifestStatus {
    /** Java 17 cannot switch over a sealed type, so callers switch on this. */
    enum State { ABSENT, VERIFIED, MISMATCH }

    State state();

    /** The archive carries no {@value Manifest#NAME} (it was not made by segtool, or a bare compressed file). */
    record Absent() implements ManifestStatus {
        @Override
        public State state() {
            return State.ABSENT;
        }
    }

    /** Every listed file was extracted with the listed size and XXH3-64, and nothing else was. */
    record Verified(int files, long bytes) implements ManifestStatus {
        @Override
        public State state() {
            return State.VERIFIED;
        }
    }

    /** The problems, listed files in manifest order first, then files the manifest does not list. */
    record Mismatch(List<ManifestProblem> problems) implements ManifestStatus {
        public Mismatch {
            problems = List.copyOf(problems);
        }

        @Override
        public State state() {
            return State.MISMATCH;
        }
    }
}

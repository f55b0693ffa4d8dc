package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import segtool.analyzers.recovery.SegmentReport.Status;

/** The per-segment table is worst first, in the order of the exit-code precedence: unreadable above refused. */
class ScanRankTest {
    @Test
    void worstFirst_ioErrorAboveRefused_aboveEveryChange_aboveClean() {
        assertTrue(ScanCommand.rank(Status.IO_ERROR) > ScanCommand.rank(Status.REFUSED));
        assertTrue(ScanCommand.rank(Status.REFUSED) > ScanCommand.rank(Status.RECOVERED_EMPTY));
        assertTrue(ScanCommand.rank(Status.TRUNCATED) > ScanCommand.rank(Status.INDEX_REBUILT));
        assertTrue(ScanCommand.rank(Status.INDEX_REBUILT) > ScanCommand.rank(Status.CLEAN));
    }
}

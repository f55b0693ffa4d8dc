package segtool.formats.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DefectTest {
    @Test
    void everyCode_describesItselfWithUnsignedNumbers() {
        for (Defect.Code code : Defect.Code.values()) {
            String line = Defect.of(code, -1L, 2, -1L, -2L).describe();
            assertTrue(line.contains("18446744073709551615"), code + ": " + line);
            assertTrue(!line.contains("-1"), code + ": " + line);
        }
    }

    @Test
    void cursorStops_readAsTheStyleGuideAsks() {
        assertEquals("batch_length 4096 runs past end of log at 1048576 (1200 bytes left)",
                Defect.of(Defect.Code.RUNS_PAST_EOF, 1048576, 0, 1200, 4096).describe());
        assertEquals("batch_length 268435713 exceeds the maximum 268435712 at 0",
                Defect.of(Defect.Code.LENGTH_OVER_MAX, 0, 0, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES,
                        BatchHeader.MAX_RECOVERABLE_BATCH_BYTES + 1).describe());
        assertEquals("header truncated at 1145: 100 of 256 bytes present",
                Defect.of(Defect.Code.HEADER_TRUNCATED, 1145, 0, 256, 100).describe());
    }
}

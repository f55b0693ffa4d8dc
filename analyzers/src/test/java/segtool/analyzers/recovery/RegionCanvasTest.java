package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class RegionCanvasTest {
    @Test
    void laterPaintsOverrideAndAdjacentKindsMerge() {
        RegionCanvas c = new RegionCanvas(1000, Region.Kind.UNEXAMINED);
        c.paint(0, 600, Region.Kind.VERIFIED).paint(600, 1000, Region.Kind.TORN_TAIL)
                .paint(100, 200, Region.Kind.UNREAD).paint(100, 200, Region.Kind.VERIFIED);
        assertEquals(List.of(new Region(Region.Kind.VERIFIED, 0, 600, ""),
                new Region(Region.Kind.TORN_TAIL, 600, 1000, "")), c.regions());
    }

    @Test
    void paintsAreClippedToTheLog() {
        RegionCanvas c = new RegionCanvas(10, Region.Kind.UNEXAMINED).paint(8, 400, Region.Kind.DAMAGED)
                .paint(-5, 2, Region.Kind.VERIFIED);
        assertEquals(List.of(new Region(Region.Kind.VERIFIED, 0, 2, ""), new Region(Region.Kind.UNEXAMINED, 2, 8, ""),
                new Region(Region.Kind.DAMAGED, 8, 10, "")), c.regions());
        assertEquals(List.of(), new RegionCanvas(0, Region.Kind.VERIFIED).regions());
    }
}

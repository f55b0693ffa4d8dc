package segtool.shell;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import segtool.analyzers.layout.DataDirJudge;
import segtool.shell.options.OutputOptions;

/**
 * A progress bar on stderr with bytes per second (progressbar). Drawn with {@code --progress} whatever stdout is
 * (as {@code pg_amcheck -P} and {@code e2fsck -C}: {@code scan DIR > report.txt} still shows it), and by default only
 * when the process has a terminal and output is neither quiet nor JSON. Its width is the terminal's ({@code COLUMNS},
 * the shell's terminal). Once the command is cancelled it stops moving: partitions the interrupt ends early are not
 * counted as done, so the bar keeps the share really read and says "cancelled".
 */
final class Progress implements DataDirJudge.Progress, AutoCloseable {
    /** The option that forces the bar, for the commands that judge many partitions. */
    static final String OPTION = "--progress";
    static final String DESCRIPTION = "Draw a progress bar on stderr (partitions judged, MiB read, speed) even when "
            + "stdout is redirected; without it a bar is drawn only on a terminal. It fits the terminal width and "
            + "stops where it was on Ctrl-C.";

    private final ProgressBar bar;
    private final Thread owner;
    private volatile boolean frozen;

    private Progress(ProgressBar bar, Thread owner) {
        this.bar = bar;
        this.owner = owner;
    }

    static Progress start(OutputOptions output, String task, boolean forced, int width, PrintStream err) {
        String term = System.getenv("TERM");
        boolean auto = System.console() != null && !output.quiet() && !output.json
                && System.getenv("SEGTOOL_NO_PROGRESS") == null && term != null && !term.startsWith("dumb");
        if (!forced && !auto) {
            return new Progress(null, Thread.currentThread());
        }
        ProgressBar bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(0).setUnit(" MiB", 1 << 20)
                .showSpeed().setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).continuousUpdate()
                .setConsumer(new ConsoleProgressBarConsumer(err, Math.max(40, width - 1))).build();
        return new Progress(bar, Thread.currentThread());
    }

    /** Whether a bar is drawn. */
    @Override
    public boolean drawn() {
        return bar != null;
    }

    @Override
    public synchronized void update(int done, int total, long bytes, long totalBytes) {
        if (bar == null || frozen) {
            return;
        }
        if (owner.isInterrupted() || Thread.currentThread().isInterrupted()) {
            // the command was cancelled (its thread, or the worker the pool interrupted): what finishes now was cut
            // short, not read
            frozen = true;
            bar.setExtraMessage(" cancelled");
            return;
        }
        bar.maxHint(totalBytes);
        bar.stepTo(bytes);
        bar.setExtraMessage(" " + done + "/" + total + " partitions");
    }

    /** The share of the bytes the bar shows as read, 0..1 (for tests). */
    double shown() {
        return bar == null ? 0 : bar.getNormalizedProgress();
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            if (owner.isInterrupted() && !frozen) {
                frozen = true;
                bar.setExtraMessage(" cancelled");
            }
            // close() waits for the last frame; an interrupted caller would skip it, so wait with the flag cleared
            boolean interrupted = Thread.interrupted();
            bar.close();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

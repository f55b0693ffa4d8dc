package segtool.shell;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import segtool.analyzers.layout.DataDirJudge;
import segtool.shell.options.OutputOptions;

/** A progress bar on stderr with bytes per second, only when stderr is a terminal and output is not quiet. */
final class Progress implements DataDirJudge.Progress, AutoCloseable {
    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    static Progress start(OutputOptions output, String task) {
        String term = System.getenv("TERM");
        boolean show = System.console() != null && !output.quiet() && !output.json
                && System.getenv("SEGTOOL_NO_PROGRESS") == null && term != null && !term.startsWith("dumb");
        if (!show) {
            return new Progress(null);
        }
        ProgressBar bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(0).setUnit(" MiB", 1 << 20)
                .showSpeed().setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).continuousUpdate()
                .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err)).build();
        return new Progress(bar);
    }

    @Override
    public synchronized void update(int done, int total, long bytes, long totalBytes) {
        if (bar != null) {
            bar.maxHint(totalBytes);
            bar.stepTo(bytes);
            bar.setExtraMessage(" " + done + "/" + total + " partitions");
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}

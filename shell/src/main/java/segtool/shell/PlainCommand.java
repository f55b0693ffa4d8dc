package segtool.shell;

/** Marks a command whose exit code is only success, I/O error, usage error or cancelled (no verdict, no damage). */
interface PlainCommand {
}

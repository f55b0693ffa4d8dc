package segtool.shell;

/**
 * Marks a command that reads and shows bytes without judging them: its exit code says whether what it read was
 * intact (0) or met damage (1), see {@link ExitCodes#list}. Commands without a marker print a verdict.
 */
interface ReadCommand {
}

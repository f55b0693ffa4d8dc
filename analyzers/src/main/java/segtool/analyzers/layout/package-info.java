/**
 * The layout of what a PATH argument names on disk: a data directory ({@code <system>/streams/...}), a partition
 * directory or one segment file ({@link segtool.analyzers.layout.Targets}), and the judging of every partition of a
 * data directory in parallel ({@link segtool.analyzers.layout.DataDirJudge}). Reads only.
 */
package segtool.analyzers.layout;

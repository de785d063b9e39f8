/**
 * The WARC output's names and defaults, apart from the writer so the command line's option specs
 * can show them without loading warcio.
 */

/** The folder of a crawl directory that holds its WARC files. */
export const WARC_DIR = 'warc';

/** Default size past which a new file is started: 1 GB, the usual size of a WARC file. */
export const DEFAULT_WARC_FILE_BYTES = 1_000_000_000;

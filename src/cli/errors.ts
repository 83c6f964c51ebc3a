/** A failure to report as one line on stderr with a non-zero exit, never a stack trace. */
export class CliError extends Error {}

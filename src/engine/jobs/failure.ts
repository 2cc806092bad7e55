/** A job's failure that is the file's fault: its message goes to the client as is. */
export class JobFailure extends Error {}

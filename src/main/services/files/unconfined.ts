/** The owner of the user's files as the desktop has it, for a service made on its own (tests, the command line) rather than by core.ts. */
import { PickedFiles } from './picked';
import { UserFiles } from './refs';
import { StagedUploads } from './staged';

/** Nothing confined (any path the user names may be read, through the same check), nothing picked yet; uploads staged in `stagingDir`. */
export function unconfinedFiles(stagingDir: string, jobSources: () => Set<string> = () => new Set()): UserFiles {
  return new UserFiles(new PickedFiles(false), new StagedUploads(stagingDir, jobSources));
}

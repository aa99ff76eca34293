import changelog from '../../../../../../CHANGELOG.md?raw';
import { parseChangelog } from './changelog';

/** The releases of CHANGELOG.md at the repository root, read when the app is built. */
export const releases = parseChangelog(changelog);

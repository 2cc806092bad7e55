/** Rules profiles: how long lines and cues may be, how fast they may be read, and the gaps between them. */

export interface RulesProfile {
  id: string;
  name: string;
  maxCharsPerLine: number;
  maxLines: number;
  minDurationMs: number;
  maxDurationMs: number;
  /** Characters per second (tags and dialogue hyphens not counted). */
  maxCps: number;
  /** Reading speed marked as a warning from here (not an error). */
  warnCps: number | null;
  minGapMs: number;
  /** How far a cue may stay up after its last word, into silence. */
  leadOutMs: number;
  /** A pause at least this long always starts a new cue. */
  pauseMs: number;
}

export const builtInProfiles: readonly RulesProfile[] = [
  {
    id: 'netflix',
    name: 'Netflix-like',
    maxCharsPerLine: 42,
    maxLines: 2,
    minDurationMs: 833,
    maxDurationMs: 7000,
    maxCps: 17,
    warnCps: 15,
    // Two frames at 24 fps.
    minGapMs: 83,
    leadOutMs: 500,
    pauseMs: 1500,
  },
  {
    id: 'social',
    name: 'Social 9:16',
    maxCharsPerLine: 24,
    maxLines: 2,
    minDurationMs: 700,
    maxDurationMs: 5000,
    maxCps: 25,
    warnCps: null,
    minGapMs: 83,
    leadOutMs: 300,
    pauseMs: 1200,
  },
  {
    id: 'lenient',
    name: 'Lenient',
    maxCharsPerLine: 43,
    maxLines: 2,
    minDurationMs: 1000,
    maxDurationMs: 8000,
    maxCps: 25,
    warnCps: null,
    minGapMs: 0,
    leadOutMs: 500,
    pauseMs: 2000,
  },
];

export const defaultProfile = builtInProfiles[0]!;

/**
 * The service's `chars_per_caption` (API.md §5) as a profile of the same
 * builder: one line of at most N characters, cues up to 7 s, a new cue at a
 * pause of a second; no reading-speed or gap rules, since the service has none.
 */
export function charsPerCaptionProfile(chars: number): RulesProfile {
  return {
    id: `chars-${chars}`,
    name: `${chars} characters per caption`,
    maxCharsPerLine: Math.max(1, Math.floor(chars)),
    maxLines: 1,
    minDurationMs: 0,
    maxDurationMs: 7000,
    maxCps: Number.POSITIVE_INFINITY,
    warnCps: null,
    minGapMs: 0,
    leadOutMs: 0,
    pauseMs: 1000,
  };
}

export function findProfile(id: string, custom: readonly RulesProfile[] = []): RulesProfile | undefined {
  return builtInProfiles.find((p) => p.id === id) ?? custom.find((p) => p.id === id);
}

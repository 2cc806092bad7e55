// components/format and labels: progress figures, and the renderer's copies of contract values.
import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, formatEta, percent } from '../../../../src/renderer/src/components/format';

describe('progress figures', () => {
  it('formats times, sizes, percent and time left', () => {
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatClock(83_000)).toBe('1:23');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatEta(null)).toBe('estimating…');
    expect(formatEta(90)).toBe('2 min left');
    expect(percent(50, 200)).toBe(25);
    expect(percent(1, null)).toBeNull();
  });
});

describe('renderer copies of contract values (kept out of the bundle to avoid loading zod)', () => {
  it('match src/shared exactly', async () => {
    const labels = await import('../../../../src/renderer/src/components/labels');
    const settings = await import('../../../../src/shared/settings');
    const jobs = await import('../../../../src/shared/jobs');
    expect(labels.regionLabels).toEqual(settings.regionLabels);
    expect(labels.initialSettings).toEqual({ ...settings.defaultSettings, webhookAuthHeaderSaved: false });
    expect(Object.keys(labels.piiPolicyLabels).sort()).toEqual([...jobs.piiPolicies].sort());
    for (const s of jobs.jobStatusSchema.unwrap().options) expect(labels.isFinalStatus(s)).toBe((jobs.FINAL_JOB_STATUSES as readonly string[]).includes(s));
  });
});

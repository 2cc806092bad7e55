/**
 * SpeakerRevision (the SDK's SpeakerRevisionEvent): the session's turn voiceprints re-clustered offline, all at
 * once, as a file's speakers are (average linkage at the same-voice threshold, bounded by max_speakers). Online
 * labelling places each turn as it comes, so an early turn heard before a voice was known well can land with
 * the wrong speaker; the revision lists only the turns whose label changed, with each word's `speaker`, and
 * the session's labels follow it from then on. Each group keeps the label most of its turns had, so a
 * revision changes as few turns as it can; a group matching a remembered voice takes that person's name.
 * The clustering runs in slices, the event loop turning between them.
 */
import type { SpeakerRevisionMessage } from '../../shared/api/streaming';
import { centroid, groupSteps, SAME_VOICE, type Grouping } from '../../shared/voices/cluster';
import { UNKNOWN_SPEAKER, type TurnVoices, type VoiceRecord } from './turn-voices';

/** groupVoices, a few milliseconds at a time. */
async function grouped(prints: Float32Array[], g: Grouping): Promise<number[]> {
  const steps = groupSteps(prints, g);
  let until = performance.now() + 8;
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() >= until) {
      await new Promise<void>((res) => setImmediate(res));
      until = performance.now() + 8;
    }
  }
}

/** The labels the records should have: each group's most common label (a remembered name first), else a new letter. */
function groupLabels(voices: TurnVoices, recs: VoiceRecord[], groups: number[]): { labels: string[]; named: Set<string> } {
  const members = new Map<number, VoiceRecord[]>();
  groups.forEach((g, i) => members.set(g, [...(members.get(g) ?? []), recs[i] as VoiceRecord]));
  const order = [...members.keys()].sort((a, b) => (members.get(b)?.length ?? 0) - (members.get(a)?.length ?? 0) || a - b);
  const taken = new Set<string>();
  const named = new Set<string>();
  const of = new Map<number, string>();
  for (const g of order) {
    const group = members.get(g) as VoiceRecord[];
    const name = voices.nameFor(centroid(group.map((r) => r.print as Float32Array)));
    let label: string | null = name && !taken.has(name) ? name : null;
    if (label) named.add(label);
    if (!label) {
      const counts = new Map<string, number>();
      for (const r of group) if (r.label !== UNKNOWN_SPEAKER) counts.set(r.label, (counts.get(r.label) ?? 0) + 1);
      const best = [...counts].filter(([l]) => !taken.has(l)).sort((a, b) => b[1] - a[1])[0];
      label = best ? best[0] : voices.nextLetter();
    }
    taken.add(label);
    of.set(g, label);
  }
  return { labels: groups.map((g) => of.get(g) as string), named };
}

/** Re-clusters the session's finished turns; the revision of the turns whose label changed, or null when none did. */
export async function reviseSpeakers(voices: TurnVoices): Promise<SpeakerRevisionMessage | null> {
  await voices.settled();
  const recs = voices.records.filter((r) => r.print !== null && r.order !== null);
  if (recs.length < 2) return null;
  const prints = recs.map((r) => r.print as Float32Array);
  let groups = await grouped(prints, { threshold: SAME_VOICE });
  const max = voices.maxSpeakers;
  if (max !== null && new Set(groups).size > max) groups = await grouped(prints, { speakers: max });
  const { labels, named } = groupLabels(voices, recs, groups);
  const revisions: SpeakerRevisionMessage['revisions'] = [];
  recs.forEach((r, i) => {
    const label = labels[i] as string;
    if (r.label === label) return;
    r.label = label;
    revisions.push({ turn_order: r.order as number, speaker_label: label, words: r.words.map((w) => ({ ...w, speaker: label })) });
  });
  // Turns still to come from an online speaker take the label most of its turns have now.
  const bySpeaker = new Map<number, Map<string, number>>();
  for (const r of recs) {
    const m = bySpeaker.get(r.speaker) ?? new Map<string, number>();
    m.set(r.label, (m.get(r.label) ?? 0) + 1);
    bySpeaker.set(r.speaker, m);
  }
  for (const [speaker, m] of bySpeaker) {
    const [label] = [...m].sort((a, b) => b[1] - a[1])[0] as [string, number];
    if (speaker >= 0) voices.relabel(speaker, label, named.has(label));
  }
  if (revisions.length === 0) return null;
  revisions.sort((a, b) => a.turn_order - b.turn_order);
  return { type: 'SpeakerRevision', revisions };
}

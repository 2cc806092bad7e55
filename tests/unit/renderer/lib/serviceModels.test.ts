// lib/serviceModels: every picker of the service's models (Settings, watch folders, live captions) reads the one
// list in src/shared/api/service-models.ts; none offers a model the service has retired, and no renderer file keeps a list of its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offeredServiceModels, SERVICE_MODELS, STREAMING_DEFAULT_MODEL } from '../../../../src/shared/api/service-models';
import { DEFAULT_SPEECH_MODELS } from '../../../../src/shared/defaults';
import { serviceModelChoices, serviceModelHelp, usedModelText } from '../../../../src/renderer/src/lib/serviceModels';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('the service’s models in the app', () => {
  it('offers AssemblyAI-STT-3.7 first for files, and neither slam-1 nor any other retired id', () => {
    const ids = serviceModelChoices('prerecorded').map((m) => m.id);
    expect(ids[0]).toBe('assemblyai-stt-3-7');
    expect(ids).toContain('universal-2');
    expect(ids).not.toContain('slam-1');
    for (const m of SERVICE_MODELS.filter((x) => x.status === 'retired')) expect(serviceModelChoices(m.kind).map((c) => c.id)).not.toContain(m.id);
  });

  it('a new job asks for the recommendation of the shared list', () => {
    expect(DEFAULT_SPEECH_MODELS).toEqual(['assemblyai-stt-3-7', 'universal-2']);
  });

  it('offers the streaming models with the service’s default among them', () => {
    const ids = serviceModelChoices('streaming').map((m) => m.id);
    expect(ids).toContain(STREAMING_DEFAULT_MODEL);
    expect(ids).toEqual(offeredServiceModels('streaming').map((m) => m.id));
  });

  it('says what replaces a deprecated model', () => {
    const u3 = SERVICE_MODELS.find((m) => m.id === 'universal-3-pro' && m.kind === 'prerecorded')!;
    expect(serviceModelHelp(u3)).toMatch(/being retired in favour of AssemblyAI-STT-3\.7/);
  });

  it('names the model a transcript says ran by its name and id', () => {
    expect(usedModelText('assemblyai-stt-3-7')).toBe('AssemblyAI-STT-3.7 (assemblyai-stt-3-7)');
    expect(usedModelText('zipformer-small-en')).toMatch(/^Zipformer small .*\(zipformer-small-en\)$/);
    expect(usedModelText('something-new')).toBe('something-new');
  });

  it('no renderer file keeps its own list of the service’s model ids', () => {
    const ids = SERVICE_MODELS.filter((m) => m.kind === 'prerecorded').map((m) => m.id);
    const offenders = files('src/renderer/src').filter((f) => {
      const text = readFileSync(f, 'utf8');
      return ids.some((id) => text.includes(`'${id}'`) || text.includes(`"${id}"`));
    });
    expect(offenders).toEqual([]);
  });
});

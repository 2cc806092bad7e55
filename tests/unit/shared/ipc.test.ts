import { describe, expect, it } from 'vitest';
import { channels, channelNames, events, isChannel, isEventName } from '../../../src/shared/ipc';
import { defaultSettings, settingsPatchSchema, settingsSchema } from '../../../src/shared/settings';

describe('IPC contract', () => {
  it('lists every channel with an input and an output schema', () => {
    for (const name of channelNames) {
      const spec = channels[name];
      expect(typeof spec.input.safeParse).toBe('function');
      expect(typeof spec.output.safeParse).toBe('function');
    }
    expect(channelNames).toEqual(expect.arrayContaining(['app.info', 'settings.get', 'settings.set']));
  });

  it('recognises only contract names', () => {
    expect(isChannel('settings.get')).toBe(true);
    expect(isChannel('toString')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isEventName('settings.changed')).toBe(true);
    expect(isEventName('constructor')).toBe(false);
    expect(Object.keys(events)).toContain('settings.changed');
  });

  it('rejects malformed settings input', () => {
    expect(channels['settings.set'].input.safeParse({ theme: 'purple' }).success).toBe(false);
    expect(channels['settings.set'].input.safeParse({ region: 'mars' }).success).toBe(false);
    expect(channels['settings.set'].input.safeParse({ unknownField: 1 }).success).toBe(false);
    expect(channels['settings.set'].input.safeParse('dark').success).toBe(false);
    expect(channels['settings.set'].input.safeParse({ theme: 'dark' }).success).toBe(true);
  });

  it('takes no input where none is declared', () => {
    expect(channels['settings.get'].input.safeParse(undefined).success).toBe(true);
    expect(channels['settings.get'].input.safeParse({ sneaky: true }).success).toBe(false);
  });

  it('fills every setting with a default', () => {
    expect(settingsSchema.parse({})).toEqual(defaultSettings);
    expect(defaultSettings.theme).toBe('system');
    expect(settingsPatchSchema.parse({})).toEqual({});
  });
});
